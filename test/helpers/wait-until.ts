/** Poll `condition` until it holds; fail after `timeoutMs` with `what` (no fixed sleeps in tests). */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) {
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		}

		await new Promise(resolve => {
			setTimeout(resolve, 10);
		});
	}
}

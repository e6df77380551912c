/**
 * For a `vi.mock` factory: the module's exports with one function wrapped to count its calls in `counter` (a
 * `vi.hoisted` object, since the factory runs before the test's imports). Import it inside the factory.
 */
export function countingCalls<M extends Record<string, unknown>>(module: M, name: keyof M & string, counter: {count: number}): M {
	const original = module[name];
	if (typeof original !== 'function') {
		throw new TypeError(`${name} is not a function of the mocked module`);
	}

	return {
		...module,
		[name]: (...args: unknown[]) => {
			counter.count++;
			return (original as (...a: unknown[]) => unknown)(...args);
		},
	};
}

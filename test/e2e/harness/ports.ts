import {createServer} from 'node:net';

/** A loopback port nothing listens on (bound once, then closed). */
export async function closedLoopbackPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	const address = server.address();
	await new Promise<void>(resolve => {
		server.close(() => {
			resolve();
		});
	});
	if (address === null || typeof address === 'string') {
		throw new Error('unexpected address');
	}

	return address.port;
}

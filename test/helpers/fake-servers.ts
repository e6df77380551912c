/**
 * For test files that run the built bin against loopback fake apiservers: the bin is built once per file, and every
 * server a test started is closed after it. Returns the function that starts one.
 */
import {afterEach, beforeAll} from 'vitest';
import {buildBin} from './run-bin.js';
import {WatchServer} from './watch-server.js';

export function binAgainstFakeServers(): () => Promise<WatchServer> {
	const servers: WatchServer[] = [];
	beforeAll(() => {
		buildBin();
	});
	afterEach(async () => {
		await Promise.all(servers.splice(0).map(async s => s.close()));
	});
	return async () => {
		const server = await WatchServer.start();
		servers.push(server);
		return server;
	};
}

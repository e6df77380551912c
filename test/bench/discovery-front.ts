/**
 * kubectl resolves `actionsets.cr.kanister.io` through API discovery (/api, /apis, /apis/GROUP/VERSION), which the
 * in-process watch server does not serve. This front on 127.0.0.1 answers discovery for the served resources and
 * passes every other request through to the watch server unchanged, streaming (watch lines are forwarded as
 * they arrive). planwatch and kubectl both talk to the front, so both pay the same extra hop.
 * The kubectl on the machine (v1.32.4-dispatcher) sends no bearer token over plain http; like `kubectl proxy`,
 * the front adds the watch server's token to requests that come without one.
 */
import http from 'node:http';
import type {AddressInfo, Socket} from 'node:net';
import {allResources, type ResourceDef, type WatchServer} from '../helpers/watch-server.js';

const verbs = ['get', 'list', 'watch'];

function resourceList(groupVersion: string, defs: readonly ResourceDef[]): unknown {
	return {
		kind: 'APIResourceList',
		apiVersion: 'v1',
		groupVersion,
		resources: defs.map(d => ({name: d.plural, singularName: d.kind.toLowerCase(), namespaced: true, kind: d.kind, verbs})),
	};
}

function discovery(pathname: string): unknown {
	const groups = [...new Set(allResources.filter(d => d.group !== '').map(d => `${d.group}/${d.version}`))];
	if (pathname === '/version') {
		return {major: '1', minor: '32', gitVersion: 'v1.32.0-bench', platform: 'linux/amd64'};
	}

	if (pathname === '/api') {
		return {kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: []};
	}

	if (pathname === '/api/v1') {
		return resourceList('v1', allResources.filter(d => d.group === ''));
	}

	if (pathname === '/apis') {
		return {
			kind: 'APIGroupList',
			apiVersion: 'v1',
			groups: groups.map(gv => {
				const [name, version] = gv.split('/') as [string, string];
				return {name, versions: [{groupVersion: gv, version}], preferredVersion: {groupVersion: gv, version}};
			}),
		};
	}

	const gv = /^\/apis\/([^/]+\/[^/]+)$/.exec(pathname)?.[1];
	if (gv && groups.includes(gv)) {
		return resourceList(gv, allResources.filter(d => `${d.group}/${d.version}` === gv));
	}

	return undefined;
}

export type DiscoveryFront = {readonly url: string; close(): Promise<void>};

export async function startDiscoveryFront(server: WatchServer, token = 'test-token'): Promise<DiscoveryFront> {
	const sockets = new Set<Socket>();
	const agent = new http.Agent({keepAlive: true});
	const front = http.createServer((request, response) => {
		const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
		const answer = discovery(pathname);
		if (answer !== undefined) {
			response.writeHead(200, {'Content-Type': 'application/json'});
			response.end(JSON.stringify(answer));
			return;
		}

		const headers = {authorization: `Bearer ${token}`, ...request.headers};
		const upstream = http.request(
			{host: '127.0.0.1', port: server.port, method: request.method, path: request.url, headers, agent},
			reply => {
				response.writeHead(reply.statusCode ?? 502, reply.headers);
				response.flushHeaders();
				reply.pipe(response);
			},
		);
		upstream.on('error', () => {
			response.destroy();
		});
		// The client went away (a watch stopped): stop the upstream watch too.
		response.on('close', () => {
			if (!response.writableFinished) {
				upstream.destroy();
			}
		});
		request.pipe(upstream);
	});
	front.on('connection', (socket: Socket) => {
		socket.setNoDelay(true);
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>(resolve => {
		front.listen(0, '127.0.0.1', resolve);
	});
	return {
		url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
		async close() {
			for (const socket of sockets) {
				socket.destroy();
			}

			agent.destroy();
			await new Promise<void>(resolve => {
				front.close(() => {
					resolve();
				});
			});
		},
	};
}

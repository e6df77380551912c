/**
 * Peak memory of the CLI against what no real apiserver or credential plugin sends (issue 19: ≤ 400 MB for
 * anything a server or a plugin sends): a LIST page that never ends, a gzip answer that inflates to 1 GiB, a watch
 * event line that never ends, a watch that keeps creating objects, and an exec plugin that writes forever (`yes`).
 * The servers are the in-process watch server on 127.0.0.1 with hostile answers injected (test doubles, never a
 * real cluster). Each run is `planwatch actionsets -n default --wait -o plain` until it exits; the peak is the
 * kernel's (getrusage maxRSS), written by the CLI's own process at exit through a preloaded module.
 */
import {spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {Readable} from 'node:stream';
import zlib from 'node:zlib';
import {actionSets, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';
import type {WatchSetup} from './watch-run.js';

export type HostileCase = 'endless-list' | 'gzip-bomb' | 'endless-event' | 'object-flood' | 'plugin-flood';

export type HostileFigures = {
	readonly name: HostileCase;
	readonly peakMiB: number;
	readonly seconds: number;
	readonly exitCode: number | null;
	/** What the server or plugin wrote (MiB; for the gzip bomb what it inflates to), when counted. */
	readonly sentMiB?: number;
};

/** What each case sends, for the table. */
export const hostileCases: Readonly<Record<HostileCase, string>> = {
	'endless-list': 'a LIST page that never ends (twice, then a normal list)',
	'gzip-bomb': 'a 1 MiB gzip LIST answer inflating to 1 GiB (twice)',
	'endless-event': 'a watch event line that never ends (twice, then a normal watch)',
	'object-flood': 'a watch that keeps creating objects (100 000 new ActionSets)',
	'plugin-flood': 'an exec credential plugin that writes forever (`yes`)',
};

const mib = 1024 * 1024;

const actionSet = (name: string, state: string, resourceVersion?: string): {metadata: {name: string; namespace: string; [key: string]: unknown}; [key: string]: unknown} => ({
	apiVersion: 'cr.kanister.io/v1alpha1',
	kind: 'ActionSet',
	metadata: {name, namespace: 'default', uid: `uid-${name}`, ...(resourceVersion ? {resourceVersion} : {})},
	spec: {actions: [{name: 'backup', blueprint: 'bp'}]},
	status: {state, actions: [{name: 'backup', blueprint: 'bp', phases: [{name: 'dump', state}]}]},
});

/** Writes `first`, then `chunk` as fast as the client reads until it hangs up or `limit` bytes went out. */
function endless(first: string, chunk: string, limit: number, counter: {bytes: number; closed: number}): (request: http.IncomingMessage, response: http.ServerResponse) => number {
	return (_request, response) => {
		response.writeHead(200, {'Content-Type': 'application/json'});
		let closed = false;
		response.on('close', () => {
			closed = true;
			counter.closed++;
		});
		response.write(first);
		let sent = 0;
		const pump = (): void => {
			while (!closed && sent < limit) {
				sent += chunk.length;
				counter.bytes += chunk.length;
				if (!response.write(chunk)) {
					response.once('drain', pump);
					return;
				}
			}

			if (!closed) {
				response.end();
			}
		};

		pump();
		return 200;
	};
}

function gzipBomb(counter: {bytes: number; closed: number}): (request: http.IncomingMessage, response: http.ServerResponse) => number {
	return (_request, response) => {
		response.writeHead(200, {'Content-Type': 'application/json', 'Content-Encoding': 'gzip'});
		let left = (1024 * mib) / (64 * 1024);
		const source = new Readable({
			read() {
				if (left-- > 0) {
					counter.bytes += 64 * 1024;
					this.push(' '.repeat(64 * 1024));
				} else {
					this.push(null);
				}
			},
		});
		response.on('close', () => {
			counter.closed++;
			source.destroy();
		});
		source.pipe(zlib.createGzip({level: 9})).pipe(response);
		return 200;
	};
}

/** A watch that sends `count` ADDED events of new, finished ActionSets, then finishes `a`, and stays open. */
function objectFlood(count: number, counter: {bytes: number; closed: number}): (request: http.IncomingMessage, response: http.ServerResponse) => number {
	return (_request, response) => {
		response.writeHead(200, {'Content-Type': 'application/json'});
		let closed = false;
		response.on('close', () => {
			closed = true;
			counter.closed++;
		});
		let i = 0;
		const pump = (): void => {
			while (!closed && i < count) {
				const line = `${JSON.stringify({type: 'ADDED', object: actionSet(`flood-${i}`, 'complete', String(1000 + i))})}\n`;
				i++;
				counter.bytes += line.length;
				if (!response.write(line)) {
					response.once('drain', pump);
					return;
				}
			}

			if (!closed) {
				response.write(`${JSON.stringify({type: 'MODIFIED', object: actionSet('a', 'complete', String(1000 + count))})}\n`);
			}
		};

		pump();
		return 200;
	};
}

/** A module the CLI preloads (`--import`): at exit it writes the process's peak RSS (KiB) to a file. */
function peakHook(directory: string): {flag: string; read(): number} {
	const out = path.join(directory, 'peak.txt');
	const hook = path.join(directory, 'peak-hook.mjs');
	writeFileSync(hook, `import {writeFileSync} from 'node:fs';\nprocess.on('exit', () => { writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)); });\n`);
	return {flag: `--import=${hook}`, read: () => Number(readFileSync(out, 'utf8')) / 1024};
}

export async function hostileRun(setup: Pick<WatchSetup, 'cli' | 'nodeFlags' | 'env' | 'cwd'>, name: HostileCase): Promise<HostileFigures> {
	const server = await WatchServer.start();
	const directory = mkdtempSync(path.join(os.tmpdir(), 'planwatch-bench-hostile-'));
	const counter = {bytes: 0, closed: 0};
	try {
		const running = name === 'endless-event' || name === 'object-flood';
		server.put(actionSets, actionSet('a', running ? 'running' : 'complete'));
		if (name === 'endless-list') {
			server.handleNext({plural: 'actionsets', watch: false}, endless('{"kind":"ActionSetList","items":[', '{"metadata":{"name":"x"}},'.repeat(2000), 256 * mib, counter), 2);
		} else if (name === 'gzip-bomb') {
			server.handleNext({plural: 'actionsets', watch: false}, gzipBomb(counter), 2);
		} else if (name === 'endless-event') {
			server.handleNext({plural: 'actionsets', watch: true}, endless('{"type":"ADDED","object":{"metadata":{"name":"', 'x'.repeat(64 * 1024), 256 * mib, counter), 2);
		} else if (name === 'object-flood') {
			server.handleNext({plural: 'actionsets', watch: true}, objectFlood(100_000, counter));
		}

		const kubeconfig = await writeKubeconfig({server: server.url, namespace: 'default', ...(name === 'plugin-flood' ? {exec: {command: 'yes'}} : {})});
		const peak = peakHook(directory);
		const args = [...setup.nodeFlags, peak.flag, setup.cli, '--kubeconfig', kubeconfig, 'actionsets', '-n', 'default', '--wait', '--timeout', '10m', '-o', 'plain'];
		const t0 = performance.now();
		const child = spawn(process.execPath, args, {cwd: setup.cwd, env: setup.env, stdio: ['ignore', 'pipe', 'pipe']});
		child.stdout.resume();
		child.stderr.resume();
		// The endless watch event: once the client has hung up on both, the object finishes and the wait ends.
		const finish = name === 'endless-event'
			? setInterval(() => {
				if (counter.closed >= 2) {
					clearInterval(finish);
					server.put(actionSets, actionSet('a', 'complete'));
				}
			}, 100)
			: undefined;
		const exitCode = await new Promise<number | null>(resolve => {
			child.on('close', resolve);
		});
		clearInterval(finish);
		const seconds = (performance.now() - t0) / 1000;
		return {name, peakMiB: peak.read(), seconds, exitCode, ...(name === 'plugin-flood' ? {} : {sentMiB: counter.bytes / mib})};
	} finally {
		await server.close();
		rmSync(directory, {recursive: true, force: true});
	}
}

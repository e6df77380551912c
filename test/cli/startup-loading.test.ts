/**
 * What the bin loads before its first frame, observed in the built bin: a preload records the Node built-ins
 * (process.moduleLoadList) and every file the module loader resolved. The demo's TUI must load neither
 * client-node (a cluster run's 1.4 MB chunk) nor Node's own undici, which yoga-layout's loader pulls in through
 * the global fetch unless the TUI's chunk is imported while that fetch refuses `data:` URLs
 * (cli/without-fetching-data-urls.ts). A cluster run must not load Node's undici either: the ES module facade of
 * `node:http` would, through its WebSocket getter, were http imported rather than required (scripts/build.mjs,
 * httpThroughRequire). Nor does the demo's first frame load node:crypto, which only filing a finished run needs.
 */
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import pty from 'node-pty';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {binEnv, binPath, buildBin, repoRoot} from '../helpers/run-bin.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'planwatch-startup-'));
const preload = path.join(dir, 'record-loads.mjs');
writeFileSync(preload, `
import fs from 'node:fs';
import module from 'node:module';
const files = [];
module.registerHooks({resolve(specifier, context, next) { const r = next(specifier, context); files.push(r.url); return r; }});
process.on('exit', () => { fs.writeFileSync(process.env.PLANWATCH_TEST_LOADS, JSON.stringify({builtins: process.moduleLoadList, files})); });
`);

/** A string of client-node's (dist/config.js) that survives minifying: the chunk that carries it is client-node's. */
const clientNodeMarker = 'No active cluster!';

type Loads = {readonly builtins: readonly string[]; readonly files: readonly string[]};

/** The bin run with pipes: its exit code, stderr and what it loaded. */
function pipedLoadsOf(args: readonly string[]): {readonly status: number | null; readonly stderr: string; readonly loads: Loads} {
	const out = path.join(dir, 'piped-loads.json');
	rmSync(out, {force: true});
	const result = spawnSync(process.execPath, ['--import', preload, binPath, ...args], {cwd: repoRoot, encoding: 'utf8', env: binEnv({PLANWATCH_TEST_LOADS: out})});
	return {status: result.status, stderr: result.stderr, loads: JSON.parse(readFileSync(out, 'utf8')) as Loads};
}

async function loadsOf(args: readonly string[]): Promise<Loads> {
	const out = path.join(dir, 'loads.json');
	rmSync(out, {force: true});
	const terminal = pty.spawn(
		process.execPath,
		['--import', preload, binPath, ...args],
		{cols: 120, rows: 40, cwd: repoRoot, env: binEnv({TERM: 'xterm-256color', PLANWATCH_TEST_LOADS: out}) as Record<string, string>},
	);
	let output = '';
	terminal.onData(d => {
		output += d;
	});
	const exitCode = await new Promise<number>(resolve => {
		terminal.onExit(e => {
			resolve(e.exitCode);
		});
	});
	expect(exitCode, output).toBe(0);
	return JSON.parse(readFileSync(out, 'utf8')) as Loads;
}

const distFiles = (loads: Loads) => [...new Set(loads.files.filter(f => f.startsWith('file:') && f.includes('/dist/')).map(f => fileURLToPath(f)))];

describe('what the bin loads for its first frame', () => {
	beforeAll(() => {
		buildBin();
	});

	afterAll(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('the marker names exactly one chunk of the build', () => {
		const chunks = readdirSync(path.join(repoRoot, 'dist', 'chunks')).filter(name => readFileSync(path.join(repoRoot, 'dist', 'chunks', name), 'utf8').includes(clientNodeMarker));
		expect(chunks).toHaveLength(1);
	});

	it('the demo in a terminal draws with Ink, without client-node, Node\'s undici or node:crypto', async () => {
		const loads = await loadsOf(['demo', '--once']);
		const files = distFiles(loads);
		expect(files.some(f => path.basename(f).startsWith('run-tui-'))).toBe(true);
		expect(files.filter(f => readFileSync(f, 'utf8').includes(clientNodeMarker))).toEqual([]);
		expect(loads.builtins).not.toContain('NativeModule internal/deps/undici/undici');
		expect(loads.builtins).not.toContain('NativeModule http');
		// The ETA history loads node:crypto with the first run it files (history/run-tracker.ts): none has finished yet.
		expect(loads.builtins).not.toContain('NativeModule crypto');
	});

	it('a cluster run loads client-node and node:http, but not Node\'s undici', () => {
		const kubeconfig = path.join(dir, 'kubeconfig');
		writeFileSync(kubeconfig, [
			'apiVersion: v1',
			'kind: Config',
			'clusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]',
			'users: [{name: u, user: {token: t}}]',
			'contexts: [{name: ctx, context: {cluster: c, user: u}}]',
			'current-context: ctx',
			'',
		].join('\n'));
		// A context the kubeconfig lacks: a usage error once cluster-run and client-node are loaded, no network.
		const {status, stderr, loads} = pipedLoadsOf(['actionset/a', '--kubeconfig', kubeconfig, '--context', 'absent', '-o', 'plain']);
		expect(stderr).toContain('context absent not found');
		expect(status).toBe(2);
		expect(distFiles(loads).filter(f => readFileSync(f, 'utf8').includes(clientNodeMarker))).toHaveLength(1);
		expect(loads.builtins).toContain('NativeModule http');
		expect(loads.builtins).not.toContain('NativeModule internal/deps/undici/undici');
	});
});

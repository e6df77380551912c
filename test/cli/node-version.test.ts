/**
 * The bin under a Node.js too old for it: one line and exit 2, decided before the CLI is loaded. The machine's
 * own Node (the first `node` on PATH outside node_modules/.bin, where npm puts the pinned one) is older than
 * 22.19 here, and the test runs the built bin with it as a user's shell would.
 */
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {minimumNode, unsupportedNodeMessage} from '../../source/cli/node-version.js';
import {binPath, buildBin} from '../helpers/run-bin.js';

describe('unsupportedNodeMessage', () => {
	it.each([
		['20.20.2', 'needs Node.js 22.19 or newer (this is v20.20.2); or use the standalone executable'],
		['22.18.9', 'needs Node.js 22.19 or newer (this is v22.18.9); or use the standalone executable'],
		['18.0.0', 'needs Node.js 22.19 or newer (this is v18.0.0); or use the standalone executable'],
		['22.19.0', undefined],
		['22.20.1', undefined],
		['24.0.0', undefined],
		['26.10.0', undefined],
		['30.1.0', undefined],
	])('%s → %s', (version, message) => {
		expect(unsupportedNodeMessage(version)).toBe(message);
	});

	it('agrees with engines.node in package.json', async () => {
		const {engines} = (await import('../../package.json', {with: {type: 'json'}})).default as {engines: {node: string}};
		expect(engines.node).toBe(`>=${minimumNode.major}.${minimumNode.minor}`);
	});
});

/** The first `node` on PATH that is not npm's pinned one. */
function systemNode(): string | undefined {
	for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
		const candidate = path.join(dir, 'node');
		if (dir !== '' && !dir.includes(`node_modules${path.sep}`) && existsSync(candidate)) {
			return candidate;
		}
	}

	return undefined;
}

describe('the bin under an old Node.js', () => {
	beforeAll(() => {
		buildBin();
	});

	const node = systemNode();
	const version = node ? spawnSync(node, ['-p', 'process.versions.node'], {encoding: 'utf8'}).stdout.trim() : '';

	it('checks process.versions.node before loading the CLI (the pinned Node, told it is 20.1.0)', () => {
		const pretend = "Object.defineProperty(process,'versions',{value:{...process.versions,node:'20.1.0'}})";
		const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, binPath, 'demo'], {encoding: 'utf8'});
		expect(result.stderr).toBe('planwatch: needs Node.js 22.19 or newer (this is v20.1.0); or use the standalone executable\n');
		expect(result.status).toBe(2);
	});

	// The one case that can skip: a machine whose only Node is new enough has nothing old to run the bin with.
	const old = node !== undefined && unsupportedNodeMessage(version) !== undefined;
	it.skipIf(!old).each([['--version'], ['-f', 'test/fixtures/kudo/operatorversion-mysql.yaml'], ['demo']])('planwatch %s under the machine\'s old Node prints one line and exits 2', (...args) => {
		const result = spawnSync(node!, [binPath, ...args], {encoding: 'utf8'});
		expect(result.stderr).toBe(`planwatch: needs Node.js 22.19 or newer (this is v${version}); or use the standalone executable\n`);
		expect(result.stdout).toBe('');
		expect(result.status).toBe(2);
	});
});

describe('the library under an old Node.js', () => {
	beforeAll(() => {
		buildBin();
	});

	const library = path.join(path.dirname(binPath), 'index.js');
	const node = systemNode();
	const version = node ? spawnSync(node, ['-p', 'process.versions.node'], {encoding: 'utf8'}).stdout.trim() : '';
	const importIt = `import(${JSON.stringify(library)}).then(() => console.log('loaded'), error => console.log(String(error.message)))`;

	it('checks process.versions.node before loading the library (the pinned Node, told it is 20.1.0)', () => {
		const pretend = "Object.defineProperty(process,'versions',{value:{...process.versions,node:'20.1.0'}})";
		const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, '-e', importIt], {encoding: 'utf8'});
		expect(result.stdout).toBe('planwatch: needs Node.js 22.19 or newer (this is v20.1.0); or use the standalone executable\n');
		expect(result.stderr).toBe('');
	});

	it('loads under the pinned Node', () => {
		expect(spawnSync(process.execPath, ['-e', importIt], {encoding: 'utf8'}).stdout).toBe('loaded\n');
	});

	const old = node !== undefined && unsupportedNodeMessage(version) !== undefined;
	it.skipIf(!old)('import(\'planwatch\') under the machine\'s old Node rejects with the CLI\'s line; uncaught, that line is all it prints', () => {
		const caught = spawnSync(node!, ['-e', importIt], {encoding: 'utf8'});
		expect(caught.stdout).toBe(`planwatch: needs Node.js 22.19 or newer (this is v${version}); or use the standalone executable\n`);
		expect(caught.stderr).toBe('');
		const uncaught = spawnSync(node!, ['--input-type=module', '-e', `import ${JSON.stringify(library)};`], {encoding: 'utf8'});
		expect(uncaught.status).not.toBe(0);
		expect(uncaught.stderr).toContain(`planwatch: needs Node.js 22.19 or newer (this is v${version})`);
		// Node's own framing aside, no minified code and no stack.
		expect(uncaught.stderr.length).toBeLessThan(400);
		expect(uncaught.stderr).not.toMatch(/TypeError|^\s+at /m);
	});
});

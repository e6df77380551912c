/**
 * Node's compile cache for the bin's chunks lives under $XDG_CACHE_HOME/planwatch (source/cli/compile-cache.ts),
 * and a cache directory that cannot be created never changes a run.
 */
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {compileCacheDir} from '../../source/cli/compile-cache.js';
import {binPath, buildBin, repoRoot} from '../helpers/run-bin.js';

describe('compileCacheDir', () => {
	it.each([
		[{XDG_CACHE_HOME: '/x/cache'}, '/x/cache/planwatch/compile-cache'],
		[{}, '/home/u/.cache/planwatch/compile-cache'],
		[{XDG_CACHE_HOME: ''}, '/home/u/.cache/planwatch/compile-cache'],
		// The XDG Base Directory spec: a relative path is invalid and ignored.
		[{XDG_CACHE_HOME: 'relative'}, '/home/u/.cache/planwatch/compile-cache'],
	])('%o → %s', (env, dir) => {
		expect(compileCacheDir(env, '/home/u')).toBe(dir);
	});
});

describe('the bin with a compile cache', () => {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'planwatch-compile-cache-'));
	const file = path.join(repoRoot, 'test', 'fixtures', 'kanister', 'actionset-mysql-backup-complete.yaml');

	beforeAll(() => {
		buildBin();
	});

	afterAll(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	/** The bin with only these variables (no NODE_COMPILE_CACHE or NODE_DISABLE_COMPILE_CACHE of the caller's). */
	function run(env: Record<string, string>) {
		return spawnSync(
			process.execPath,
			[binPath, '-f', file, '-o', 'plain'],
			{cwd: repoRoot, encoding: 'utf8', env: {PATH: process.env['PATH'] ?? '', TZ: 'UTC', HOME: path.join(dir, 'home'), ...env}},
		);
	}

	it('files the chunks it loaded under $XDG_CACHE_HOME/planwatch/compile-cache, and reads them the next time', () => {
		const cache = path.join(dir, 'xdg');
		const first = run({XDG_CACHE_HOME: cache});
		expect(first.stderr).toBe('');
		expect(first.status).toBe(0);
		// Node files entries under a directory named after its version, architecture and flags.
		const [versioned, ...others] = readdirSync(path.join(cache, 'planwatch', 'compile-cache'));
		expect(others).toEqual([]);
		const entries = readdirSync(path.join(cache, 'planwatch', 'compile-cache', versioned!));
		expect(entries.length).toBeGreaterThan(5);

		const debug = run({XDG_CACHE_HOME: cache, NODE_DEBUG_NATIVE: 'COMPILE_CACHE'});
		expect(debug.status).toBe(0);
		expect(debug.stdout).toBe(first.stdout);
		expect(debug.stderr).toMatch(/V8 code cache for ESM file:\S+\/dist\/chunks\/cli-\S+\.js was accepted/);
	});

	it('runs the same when the cache directory cannot be created', () => {
		// A file where the cache's parent directory should be: mkdir fails for every user, root included.
		const blocker = path.join(dir, 'not-a-directory');
		writeFileSync(blocker, '');
		const reference = run({XDG_CACHE_HOME: path.join(dir, 'reference')});
		const blocked = run({XDG_CACHE_HOME: blocker});
		expect(blocked.stderr).toBe('');
		expect(blocked.status).toBe(0);
		expect(blocked.stdout).toBe(reference.stdout);
		expect(blocked.stdout).toContain('backup-rslmb');
	});

	it('leaves the home directory alone when NODE_COMPILE_CACHE names another directory', () => {
		const elsewhere = path.join(dir, 'node-compile-cache');
		const result = run({NODE_COMPILE_CACHE: elsewhere});
		expect(result.status).toBe(0);
		// One cache per V8 flag set: the bin before it runs Node again, and the CLI with --efficiency-mode.
		expect(readdirSync(elsewhere).length).toBeGreaterThanOrEqual(1);
		expect(() => readdirSync(path.join(dir, 'home', '.cache'))).toThrow();
	});
});

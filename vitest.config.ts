import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {defineConfig} from 'vitest/config';

// Runs of the bin and of the history code write their ETA history here, never to the real ~/.local/state.
const stateHome = mkdtempSync(path.join(tmpdir(), 'planwatch-test-state-'));
// The bin's compile cache (source/cli/compile-cache.ts) goes here, never to the real ~/.cache.
const cacheHome = mkdtempSync(path.join(tmpdir(), 'planwatch-test-cache-'));

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		globalSetup: ['test/helpers/dependency-patches-setup.ts'],
		// Hang bounds, not speed budgets: a test that waits does so on events, counts or this process's CPU time
		// (test/helpers/deadline.ts), so only a hang reaches these; a loaded machine (load 20 on 2 cores) must pass.
		// One place for every unit test and hook: no test sets a shorter bound of its own.
		testTimeout: 300_000,
		hookTimeout: 300_000,
		env: {XDG_STATE_HOME: stateHome, XDG_CACHE_HOME: cacheHome},
	},
});

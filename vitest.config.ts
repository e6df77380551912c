import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {defineConfig} from 'vitest/config';

// Runs of the bin and of the history code write their ETA history here, never to the real ~/.local/state.
const stateHome = mkdtempSync(path.join(tmpdir(), 'planwatch-test-state-'));

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		globalSetup: ['test/helpers/dependency-patches-setup.ts'],
		testTimeout: 20_000,
		env: {XDG_STATE_HOME: stateHome},
	},
});

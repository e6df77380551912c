import {defineConfig} from 'vitest/config';
import base from './vitest.config.js';

// The unit-test config narrowed to the test files of one mutated file (scripts/mutation.mjs sets them). Not
// Stryker's own `testFiles`: with it, Stryker 10.1 activates static mutants (module-level tables) only after the
// module has loaded, so every one of them survives (stryker-mutator/stryker-js#6144).
const tests = (process.env['PLANWATCH_MUTATION_TESTS'] ?? '').split(',').filter(Boolean);
if (tests.length === 0) {
	throw new Error('vitest.mutation.config.ts: PLANWATCH_MUTATION_TESTS names no test file (run it through npm run test:mutation)');
}

export default defineConfig({...base, test: {...base.test, include: tests}});

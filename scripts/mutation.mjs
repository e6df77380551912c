#!/usr/bin/env node
/**
 * `npm run test:mutation [-- [--concurrency N] [--incremental] [name …]]`: Stryker on the code that decides a
 * state, a verdict or an exit code, one source file at a time against its own fast tests only (a file's mutants
 * must be killed by the tests written for it, not by an e2e run that happens to pass through). Not part of
 * `npm test`: it takes minutes. Prints one line per file and the table docs/development.md shows;
 * reports/mutation/<file>.html lists every surviving mutant. The scores are measured here, never asserted.
 *
 * `name` narrows the run to the files whose path contains it (`status`, `wait-`). `--incremental` reuses the
 * results of unchanged mutants and tests from reports/mutation/<file>.incremental.json, which every run writes
 * (Stryker re-runs what changed in the file or its tests; a run without it runs every mutant).
 */
import {lstatSync, realpathSync} from 'node:fs';
import {availableParallelism} from 'node:os';
import path from 'node:path';
import {Stryker} from '@stryker-mutator/core';

/** Each mutated file with the tests that are its own (globs from the repository root). */
const targets = [
	{file: 'source/model/status.ts', tests: ['test/model/status.test.ts']},
	{
		file: 'source/model/wait-rules.ts',
		tests: ['test/model/wait-rules.test.ts', 'test/model/wait-verdict-table.test.ts', 'test/model/wait-plan.test.ts'],
	},
	{file: 'source/model/kanister-events.ts', tests: ['test/model/kanister-events.test.ts', 'test/model/kanister-event-facts.test.ts']},
	{
		file: 'source/model/adapt-kanister-action-set.ts',
		tests: [
			'test/model/adapt-kanister-action-set.test.ts', 'test/model/action-verdict.test.ts',
			'test/model/action-set-object-verdict.test.ts', 'test/model/kanister-action-verdict.test.ts',
			'test/model/adapt-action-set-rules.test.ts', 'test/model/kanister-rejected.test.ts',
		],
	},
	{
		file: 'source/model/adapt-kudo-instance.ts',
		tests: [
			'test/model/adapt-kudo-instance.test.ts',
			'test/model/kudo-v1alpha1.test.ts',
			'test/model/adapt-kudo-instance-table.test.ts',
		],
	},
	{file: 'source/model/kudo-plan-order.ts', tests: ['test/model/kudo-plan-order.test.ts', 'test/model/kudo-plan-order-table.test.ts']},
	{file: 'source/model/deletion.ts', tests: ['test/model/deletion.test.ts']},
	{
		file: 'source/state/wait-decision.ts',
		tests: ['test/state/wait-decision.test.ts', 'test/state/decide-targets.test.ts', 'test/state/wait-decision-table.test.ts'],
	},
];

function parseArguments(argv) {
	const out = {names: [], incremental: false, concurrency: undefined};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--incremental') {
			out.incremental = true;
		} else if (a === '--concurrency') {
			out.concurrency = Number(argv[++i]);
		} else if (a.startsWith('--concurrency=')) {
			out.concurrency = Number(a.slice('--concurrency='.length));
		} else if (a.startsWith('-')) {
			throw new Error(`unknown option ${a} (known: --concurrency N, --incremental)`);
		} else {
			out.names.push(a);
		}
	}

	if (out.concurrency !== undefined && !(Number.isInteger(out.concurrency) && out.concurrency > 0)) {
		throw new Error('--concurrency takes a whole number above 0');
	}

	return out;
}

/** Stryker's mutation score: detected (killed, timed out) over detected and undetected (survived, not covered). */
function score(results) {
	const count = status => results.filter(r => r.status === status).length;
	const c = {
		mutants: results.length,
		killed: count('Killed'),
		timeout: count('Timeout'),
		survived: count('Survived'),
		noCoverage: count('NoCoverage'),
		ignored: count('Ignored'),
		errors: count('CompileError') + count('RuntimeError'),
	};
	const detected = c.killed + c.timeout;
	const valid = detected + c.survived + c.noCoverage;
	return {...c, score: valid === 0 ? Number.NaN : (100 * detected) / valid};
}

/**
 * Stryker links node_modules into its sandbox only when it is a directory; in a git worktree that shares another
 * checkout's node_modules through a symlink, the sandbox would have none (and scripts/patch-deps.mjs, run by the
 * tests' global setup, reads node_modules under the sandbox). Then the sandbox gets the same link, made by the build
 * command Stryker runs in it before the tests.
 */
function linkNodeModules() {
	const here = path.resolve('node_modules');
	try {
		if (!lstatSync(here).isSymbolicLink()) {
			return {};
		}
	} catch {
		return {};
	}

	// Stryker splits the command at spaces (no shell): the path travels in the environment, the code has no space.
	process.env['PLANWATCH_NODE_MODULES'] = realpathSync(here);
	return {buildCommand: 'node -e require("node:fs").symlinkSync(process.env.PLANWATCH_NODE_MODULES,"node_modules")'};
}

async function mutate(target, {incremental, concurrency}) {
	const base = path.basename(target.file, '.ts');
	// Read by vitest.mutation.config.ts in Stryker's workers, which inherit the environment.
	process.env['PLANWATCH_MUTATION_TESTS'] = target.tests.join(',');
	const results = await new Stryker({
		testRunner: 'vitest',
		plugins: ['@stryker-mutator/vitest-runner'],
		// Only the file's own tests: vitest.mutation.config.ts includes what PLANWATCH_MUTATION_TESTS names.
		// `related` would add every test that imports the file (through the adapters, most of test/).
		vitest: {configFile: 'vitest.mutation.config.ts', related: false},
		mutate: [target.file],
		...linkNodeModules(),
		coverageAnalysis: 'perTest',
		// Two cores shared with builds and other test runs: one worker, unless told otherwise.
		concurrency: concurrency ?? Math.max(1, Math.min(2, availableParallelism() - 1)),
		// A loaded machine is slow: a generous timeout, so a slow run is not counted as a killed mutant.
		timeoutMS: 20_000,
		timeoutFactor: 2,
		reporters: ['clear-text', 'html'],
		clearTextReporter: {allowColor: false, reportTests: false, reportScoreTable: true, skipFull: true},
		htmlReporter: {fileName: `reports/mutation/${base}.html`},
		// Every run writes the incremental file; only --incremental reads it (otherwise every mutant is run: force).
		incremental: true,
		force: !incremental,
		incrementalFile: `reports/mutation/${base}.incremental.json`,
		// Nothing in these is read by the unit tests; copying them into each sandbox only costs time.
		ignorePatterns: ['dist', 'release', 'media', 'reports', '.ci', 'test/e2e', 'test/bench', 'README.md', 'LICENSE'],
		tempDirName: '.stryker-tmp',
		logLevel: 'warn',
		fileLogLevel: 'off',
		// Scores are reported, not asserted (see docs/development.md).
		thresholds: {high: 90, low: 80, break: null},
	}).runMutationTest();
	return score(results);
}

async function main() {
	const args = parseArguments(process.argv.slice(2));
	const chosen = args.names.length === 0 ? targets : targets.filter(t => args.names.some(n => t.file.includes(n)));
	if (chosen.length === 0) {
		throw new Error(`no mutated file matches ${args.names.join(', ')} (files: ${targets.map(t => t.file).join(', ')})`);
	}

	const rows = [];
	for (const target of chosen) {
		const s = await mutate(target, args);
		rows.push({target, s});
		console.log(`${target.file}: ${s.score.toFixed(2)} % (${s.killed} killed, ${s.timeout} timed out, ${s.survived} survived, ` +
			`${s.noCoverage} not covered, ${s.ignored} ignored, ${s.errors} errors; ${s.mutants} mutants)`);
	}

	console.log('\n| File | Mutants | Killed | Timed out | Survived | No coverage | Ignored | Score |');
	console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
	for (const {target, s} of rows) {
		console.log(`| \`${target.file}\` | ${s.mutants} | ${s.killed} | ${s.timeout} | ${s.survived} | ${s.noCoverage} | ${s.ignored} | ` +
			`${s.score.toFixed(1)} % |`);
	}
}

try {
	await main();
} catch (error) {
	console.error(`test:mutation: ${error instanceof Error ? error.message : String(error)}`);
	process.exitCode = 2;
}

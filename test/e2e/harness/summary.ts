/**
 * vitest globalSetup of the e2e suite: names the results file every test file appends to (harness/results.ts)
 * and, when the run ends, prints the table: scenarios run, faults survived, objects compared, mismatches.
 */
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {TestProject} from 'vitest/node';
import type {Tally} from './results.js';

export default function setup(project: TestProject): () => void {
	const dir = mkdtempSync(path.join(tmpdir(), 'planwatch-e2e-results-'));
	const file = path.join(dir, 'results.ndjson');
	writeFileSync(file, '');
	project.provide('planwatchE2eResults', file);
	process.env['PLANWATCH_E2E_RESULTS'] = file;
	return () => {
		const tallies = readFileSync(file, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as Tally);
		rmSync(dir, {recursive: true, force: true});
		const sum = (pick: (t: Tally) => number | undefined) => tallies.reduce((n, t) => n + (pick(t) ?? 0), 0);
		const rows: Array<[string, number]> = [
			['scenarios run', sum(t => t.scenarios)],
			['faults survived', sum(t => t.faults)],
			['objects compared', sum(t => t.objectsCompared)],
			['mismatches', sum(t => t.mismatches)],
		];
		const width = Math.max(...rows.map(([label]) => label.length));
		const lines = [
			'',
			'planwatch e2e against a real kube-apiserver',
			...rows.map(([label, n]) => `  ${label.padEnd(width)}  ${String(n).padStart(5)}`),
			...tallies.flatMap(t => (t.note ? [`    · ${t.note}`] : [])).sort(),
			'',
		];
		process.stdout.write(lines.join('\n') + '\n');
	};
}

/**
 * The suite's tally, printed as a table when the run ends (test/e2e/harness/summary.ts, a vitest globalSetup):
 * every test file appends what it did — scenarios run, faults survived, objects compared, mismatches — as one
 * JSON line to a file the global setup names. Appends are atomic lines, so files may record in any order.
 */
import {appendFileSync} from 'node:fs';
import {inject} from 'vitest';

export type Tally = {
	readonly scenarios?: number;
	readonly faults?: number;
	readonly objectsCompared?: number;
	readonly mismatches?: number;
	/** What was done, for the table's detail rows (e.g. "fault: apiserver restart"). */
	readonly note?: string;
};

declare module 'vitest' {
	// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
	export interface ProvidedContext {
		planwatchE2eResults: string;
	}
}

export function record(tally: Tally): void {
	let file: string | undefined;
	try {
		file = inject('planwatchE2eResults');
	} catch {
		file = undefined;
	}

	file ??= process.env['PLANWATCH_E2E_RESULTS'];
	if (file) {
		appendFileSync(file, JSON.stringify(tally) + '\n');
	}
}

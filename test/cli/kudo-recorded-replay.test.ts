/**
 * What the real KUDO v0.19.0 manager (with its admission webhook) wrote, recorded by planwatch's --record in the e2e
 * suite (test/e2e/kudo-real.test.ts with PLANWATCH_KUDO_RECORD; test/fixtures/kudo-recorded/, header `controller`),
 * replayed through the bin so the verdicts stay pinned where the controller cannot run:
 * - install, then `kubectl kudo plan trigger --name fails` 0.3 s later: deploy COMPLETE and fails FATAL_ERROR carry
 *   the same lastUpdatedTimestamp second; a wait begun afterwards must exit 1 (fails ran last), never 0;
 * - plan `stuck` running, then the Instance deleted: the manager runs cleanup and the object goes; the wait ends at
 *   the DELETED event with exit 0 (KUDO lets it go only once cleanup is COMPLETE), not at its timeout; with
 *   `--plan stuck` the plan waited for never finished (the manager replaced it by cleanup): exit 1.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {parseRecording} from '../../source/recording/recording.js';
import {buildBin, repoRoot, runBin} from '../helpers/run-bin.js';

const dir = path.join(repoRoot, 'test', 'fixtures', 'kudo-recorded');

beforeAll(() => {
	buildBin();
});

type JsonLine = {type: string; exitCode?: number; message?: string; objects?: Array<{name: string; active?: string; tree: Array<{name: string; status: string}>}>};

function lines(stdout: string): JsonLine[] {
	return stdout.trim().split('\n').map(l => JSON.parse(l) as JsonLine);
}

/** Seconds after the recording's start, for --from: just after the first entry that `matches`. */
function secondsAfter(file: string, matches: (line: string) => boolean): string {
	const text = readFileSync(file, 'utf8');
	const recording = parseRecording(text, file);
	const line = text.split('\n').find(l => matches(l));
	expect(line, 'the moment in the recording').toBeDefined();
	const at = Date.parse((JSON.parse(line!) as {at: string}).at);
	return `${Math.ceil((at - recording.startMs) / 1000)}s`;
}

describe('recordings of the real KUDO v0.19.0 manager', () => {
	it('were recorded from it (the header names it)', () => {
		for (const file of ['same-second-trigger.planwatch.ndjson', 'delete-while-running.planwatch.ndjson']) {
			const header = JSON.parse(readFileSync(path.join(dir, file), 'utf8').split('\n')[0]!) as {controller?: string};
			expect(header.controller).toMatch(/^KUDO 0\.19\.0 manager with its admission webhook/);
		}
	});

	it('deploy and fails ended in the same second: a wait begun after both exits 1 with fails, never 0', async () => {
		const file = path.join(dir, 'same-second-trigger.planwatch.ndjson');
		const raw = JSON.parse(readFileSync(path.join(dir, 'same-second-trigger.raw.json'), 'utf8')) as {instance: Array<{object: {status?: {planStatus?: Record<string, {
			status: string;
			lastUpdatedTimestamp?: string;
		}>}}}>};
		const plans = raw.instance.at(-1)!.object.status!.planStatus!;
		// The fixture is the tie: one-second timestamps that cannot order the two plans.
		expect(plans['deploy']).toMatchObject({status: 'COMPLETE'});
		expect(plans['fails']).toMatchObject({status: 'FATAL_ERROR', lastUpdatedTimestamp: plans['deploy']!.lastUpdatedTimestamp});

		// After the FATAL_ERROR write arrived (its "Failed"/DummyTaskError Event is later still).
		const from = secondsAfter(file, l => l.includes('"FATAL_ERROR"') && l.includes('"resource":"Instance"'));
		const replayed = await runBin(['replay', file, '--wait', '--from', from, '--speed', '50', '-o', 'json']);
		expect(replayed.stderr).toBe('');
		expect(replayed.code).toBe(1);
		const out = lines(replayed.stdout);
		expect(out.at(-1)).toMatchObject({type: 'result', exitCode: 1});
		const final = out.findLast(l => l.type === 'snapshot')?.objects?.find(o => o.name === 'app');
		expect(final?.active).toBe('fails');
	});

	it('deleted while its plan ran: the wait ends at the DELETED event, exit 0 after the cleanup plan', async () => {
		const file = path.join(dir, 'delete-while-running.planwatch.ndjson');
		// While `stuck` runs, before the deletion began.
		const from = secondsAfter(file, l => l.includes('"resource":"Instance"') && l.includes('"planName":"stuck"') && l.includes('"IN_PROGRESS"'));
		const replayed = await runBin(['replay', file, '--wait', '--timeout', '10m', '--from', from, '--speed', '50', '-o', 'json']);
		expect(replayed.stderr).toBe('');
		expect(replayed.code).toBe(0);
		expect(lines(replayed.stdout).at(-1)).toMatchObject({type: 'result', exitCode: 0, message: expect.stringMatching(/^deleted after its cleanup plan finished/) as unknown});
	});

	it('deleted while its plan ran, waited for with --plan stuck: that plan never finished, exit 1 in json and plain', async () => {
		const file = path.join(dir, 'delete-while-running.planwatch.ndjson');
		const from = secondsAfter(file, l => l.includes('"resource":"Instance"') && l.includes('"planName":"stuck"') && l.includes('"IN_PROGRESS"'));
		const json = await runBin(['replay', file, '--wait', '--plan', 'stuck', '--timeout', '10m', '--from', from, '--speed', '50', '-o', 'json']);
		expect(json.stderr).toBe('');
		expect(json.code).toBe(1);
		expect(lines(json.stdout).at(-1)).toMatchObject({type: 'result', exitCode: 1, message: 'deleted before plan stuck finished; last seen: stuck in progress'});
		const plain = await runBin(['replay', file, '--wait', '--plan', 'stuck', '--timeout', '10m', '--from', from, '--speed', '50', '-o', 'plain']);
		expect(plain.code).toBe(1);
		expect(plain.stdout).toMatch(/\/app {2}DELETED {2}deleted before plan stuck finished; last seen: stuck in progress\n/);
		expect(plain.stdout).not.toMatch(/cleanup plan finished/);
	});
});

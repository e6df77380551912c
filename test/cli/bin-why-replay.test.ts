/**
 * `--record` keeps what the why-stuck demo showed of its pods and logs, and `planwatch replay` of the recording
 * shows the same diagnosis: cause, next command and last log lines of the failed Kanister phase whose pod is gone.
 */
import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import type {JsonNode} from '../../source/render/json.js';
import {buildBin, runBin} from '../helpers/run-bin.js';

beforeAll(() => {
	buildBin();
});

type Snapshot = {type: string; objects?: Array<{name: string; tree: JsonNode[]}>};

/** Every node's diagnosis keys in the last snapshot of an NDJSON run, by path. */
function diagnoses(stdout: string): Record<string, Partial<JsonNode>> {
	const snapshot = stdout.trim().split('\n').map(l => JSON.parse(l) as Snapshot).filter(l => l.type === 'snapshot').at(-1)!;
	const found: Record<string, Partial<JsonNode>> = {};
	const walk = (node: JsonNode, at: string): void => {
		const here = `${at}/${node.name}`;
		const {cause, next, logTail, pods, resources, watchNote} = node;
		if (cause !== undefined || next !== undefined) {
			found[here] = {cause, next, logTail, pods, resources, watchNote};
		}

		node.children.forEach(c => walk(c, here));
	};

	for (const o of snapshot.objects ?? []) {
		o.tree.forEach(n => walk(n, o.name));
	}

	return found;
}

describe('why-stuck recorded and replayed', () => {
	it('the replay shows the diagnosis the live run showed', async () => {
		const file = path.join(mkdtempSync(path.join(tmpdir(), 'planwatch-why-')), 'why.ndjson');
		// To the end (the KUDO plan completes, the backup failed): no timer decides what the last snapshot holds.
		const live = await runBin(['demo', '--scenario', 'why-stuck', '--speed', '20', '--no-history', '-o', 'json', '--wait', '--record', file], {timeoutMs: 120_000});
		expect(live.code, live.stderr).toBe(1);
		const replay = await runBin(['replay', file, '--speed', '20', '--no-history', '-o', 'json', '--wait'], {timeoutMs: 120_000});
		expect(replay.code, replay.stderr).toBe(1);
		const seen = diagnoses(live.stdout);
		expect(Object.keys(seen)).toEqual(['backup-orders-7q2lx/backup/dumpToObjectStore']);
		const phase = seen['backup-orders-7q2lx/backup/dumpToObjectStore']!;
		expect(phase.cause).toMatch(/^pod kanister-job-m8wzt \(gone\): container container failed: exit code 2/);
		expect(phase.logTail?.lines.at(-1)).toBe('Error: failed to push data to location: no data read from stdin');
		expect(phase.next).toBe('kanctl create actionset --action backup --from backup-orders-7q2lx --namespace default');
		expect(diagnoses(replay.stdout)).toEqual(seen);
	});
});

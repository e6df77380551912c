/**
 * The store's cap on distinct objects (state/object-cap.ts maxObjectsPerKind, docs/limits.md) through the bin: a List of
 * one Instance more than the cap is drawn with the cap's worth of objects and one line saying what was left out —
 * on stderr for plain, as the `limited` key in json. Generated input, never a committed file.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {maxObjectsPerKind} from '../../source/state/store.js';
import {buildBin, runBin} from '../helpers/run-bin.js';

const temporary = mkdtempSync(path.join(os.tmpdir(), 'planwatch-object-cap-'));
const file = path.join(temporary, 'instances.json');
const line = 'planwatch: more Instances than planwatch holds (20,000): the ones past it are not shown\n';

beforeAll(() => {
	buildBin();
	const items = Array.from({length: maxObjectsPerKind + 1}, (_, i) => ({
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: `i${String(i).padStart(5, '0')}`, namespace: 'default'},
		spec: {operatorVersion: {name: 'op-0.1.0'}},
		status: {planStatus: {deploy: {name: 'deploy', status: 'COMPLETE', lastUpdatedTimestamp: '2026-01-01T10:00:00Z', phases: []}}},
	}));
	writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}));
}, 180_000);

afterAll(() => {
	rmSync(temporary, {recursive: true, force: true});
});

describe('more Instances than planwatch holds', () => {
	it('-o json: the cap\'s worth of objects and the `limited` key', async () => {
		const r = await runBin(['-f', file, '-o', 'json']);
		expect(r.stderr).toBe('');
		expect(r.code).toBe(0);
		const doc = JSON.parse(r.stdout) as {objects: Array<{name: string}>; limited?: unknown};
		expect(doc.objects).toHaveLength(maxObjectsPerKind);
		expect(doc.objects.at(-1)?.name).toBe('i19999');
		expect(doc.limited).toEqual([{resource: 'Instance', reason: line.slice('planwatch: '.length, -1)}]);
	}, 120_000);

	it('-o plain: one line on stderr, once', async () => {
		const r = await runBin(['-f', file, '-o', 'plain']);
		expect(r.code).toBe(0);
		expect(r.stderr).toBe(line);
		expect(r.stdout).not.toContain('i20000');
		expect(r.stdout).toContain('i19999');
	}, 120_000);
});

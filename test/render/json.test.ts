import {describe, expect, it} from 'vitest';
import type {PlanEvent} from '../../source/model/plan-tree.js';
import {objectKey} from '../../source/model/plan-tree.js';
import {renderJson, resultLine, snapshotLine, toJsonDocument, transitionLine, type JsonNode} from '../../source/render/json.js';
import {backupDeferFailed, mysqlDeploying} from '../helpers/plan-objects.js';

const event: PlanEvent = {
	uid: 'e1',
	namespace: 'kanister',
	involvedKind: 'ActionSet',
	involvedName: 'backup-glptq',
	type: 'Warning',
	reason: 'ActionSetFailed Action: backup',
	message: 'Failed to execute defer phase',
	time: '2026-11-30T11:00:59Z',
	count: 1,
};

const snapshot = {
	objects: [backupDeferFailed, mysqlDeploying],
	events: new Map([[objectKey(backupDeferFailed), [event]]]),
};

function allNodes(nodes: readonly JsonNode[]): JsonNode[] {
	return nodes.flatMap(n => [n, ...allNodes(n.children)]);
}

describe('renderJson', () => {
	it('writes {"objects": [...]} with the required keys on every object and node', () => {
		const doc = JSON.parse(renderJson(snapshot)) as {objects: Array<Record<string, unknown> & {tree: JsonNode[]}>};
		expect(Object.keys(doc)).toEqual(['objects']);
		expect(doc.objects).toHaveLength(2);
		for (const o of doc.objects) {
			for (const key of ['kind', 'namespace', 'name', 'outcome', 'summary', 'tree']) {
				expect(o).toHaveProperty(key);
			}

			for (const n of allNodes(o.tree)) {
				expect(Object.keys(n)).toEqual(expect.arrayContaining(['kind', 'name', 'status', 'state', 'children']));
				expect(['plan', 'phase', 'step', 'action', 'deferPhase']).toContain(n.kind);
				expect(Array.isArray(n.children)).toBe(true);
			}
		}
	});

	it('keeps raw status next to the normalized state, and optional facts only when present', () => {
		const doc = toJsonDocument(snapshot);
		const [actionSet, instance] = doc.objects;
		expect(actionSet).toMatchObject({kind: 'ActionSet', namespace: 'kanister', name: 'backup-glptq', outcome: 'failed', status: 'failed', percent: 62, version: 'postgres-bp'});
		expect(actionSet!.events).toEqual([{type: 'Warning', reason: 'ActionSetFailed Action: backup', message: 'Failed to execute defer phase', time: '2026-11-30T11:00:59Z', count: 1}]);
		expect(instance).not.toHaveProperty('events');
		expect(instance!.steps).toEqual({done: 1, total: 3});

		const defer = allNodes(actionSet!.tree).find(n => n.kind === 'deferPhase');
		expect(defer).toEqual({kind: 'deferPhase', name: 'deferPhase', status: 'failed', state: 'failed', note: 'always runs', message: 'pods "postgres-backup-x" not found', children: []});
		const init = allNodes(instance!.tree).find(n => n.name === 'init');
		expect(init).toMatchObject({kind: 'step', status: 'ERROR', state: 'retrying'});
		expect(init).not.toHaveProperty('strategy');
		expect(allNodes(instance!.tree)[0]).toMatchObject({kind: 'plan', strategy: 'serial', updatedAt: '2026-11-30T11:02:51Z'});
	});

	it('ends with a newline and is stable across calls', () => {
		const text = renderJson(snapshot);
		expect(text.endsWith('}\n')).toBe(true);
		expect(renderJson(snapshot)).toBe(text);
		expect(renderJson({objects: [], events: new Map()})).toBe('{\n  "objects": []\n}\n');
	});
});

describe('NDJSON lines', () => {
	const at = Date.parse('2026-11-30T11:03:22Z');

	it('writes one snapshot per line', () => {
		const line = snapshotLine(snapshot, at);
		expect(line.endsWith('\n')).toBe(true);
		expect(line.slice(0, -1)).not.toContain('\n');
		const parsed = JSON.parse(line) as {type: string; time: string; objects: unknown[]};
		expect(parsed.type).toBe('snapshot');
		expect(parsed.time).toBe('2026-11-30T11:03:22.000Z');
		expect(parsed.objects).toEqual(toJsonDocument(snapshot).objects);
	});

	it('writes transitions and the result', () => {
		const t = {
			seq: 3,
			at,
			objectKey: 'Instance/default/mysql-instance',
			kind: 'Instance',
			namespace: 'default',
			name: 'mysql-instance',
			path: ['deploy', 'deploy', 'init'],
			from: 'IN_PROGRESS',
			to: 'COMPLETE',
			durationMs: 41_000,
		};
		expect(JSON.parse(transitionLine(t))).toEqual({
			type: 'transition',
			time: '2026-11-30T11:03:22.000Z',
			kind: 'Instance',
			namespace: 'default',
			name: 'mysql-instance',
			path: ['deploy', 'deploy', 'init'],
			from: 'IN_PROGRESS',
			to: 'COMPLETE',
			durationMs: 41_000,
		});
		expect(JSON.parse(transitionLine({...t, durationMs: undefined}))).not.toHaveProperty('durationMs');
		expect(resultLine({exitCode: 1, message: 'restore failed'}, at)).toBe('{"type":"result","time":"2026-11-30T11:03:22.000Z","exitCode":1,"message":"restore failed"}\n');
	});
});

describe('a static snapshot (-f): "asOf" first', () => {
	it('names the moment the picture is of, and says when the files recorded none', () => {
		const at = Date.parse('2025-06-02T09:57:19Z');
		const recorded = JSON.parse(renderJson(snapshot, undefined, {at, recorded: true})) as Record<string, unknown>;
		expect(Object.keys(recorded).slice(0, 2)).toEqual(['asOf', 'objects']);
		expect(recorded['asOf']).toBe('2025-06-02T09:57:19Z');
		expect(recorded).not.toHaveProperty('asOfRecorded');
		const read = JSON.parse(renderJson({objects: [], events: new Map()}, undefined, {at, recorded: false})) as Record<string, unknown>;
		expect(read).toEqual({asOf: '2025-06-02T09:57:19Z', asOfRecorded: false, objects: []});
		expect(JSON.parse(renderJson(snapshot))).not.toHaveProperty('asOf');
	});
});

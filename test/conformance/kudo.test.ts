/**
 * KUDO conformance: every case of kudo-cases.ts (each citing the kudobuilder/kudo source it encodes) through
 * the adapter, the wait rules and the built CLI (`-f … -o json`).
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import type {PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {waitVerdict} from '../../source/model/wait-rules.js';
import type {JsonNode, JsonObject} from '../../source/render/json.js';
import {buildBin, runBin} from '../helpers/run-bin.js';
import {instanceOf, kudoCases, updated, type KudoCase} from './kudo-cases.js';

const options = {now: Date.parse(updated) + 1000, deferGraceMs: 30_000, staleMs: 600_000};

function adapt(k: KudoCase): PlanObject {
	return adaptInstance(instanceOf(k, k.name));
}

function find(nodes: readonly PlanNode[], pathText: string): PlanNode | undefined {
	let found: PlanNode | undefined;
	let level = nodes;
	for (const part of pathText.split('/')) {
		found = level.find(n => n.name === part);
		level = found?.children ?? [];
	}

	return found;
}

describe('KUDO conformance: adapter and wait rules', () => {
	test.each(kudoCases.map(k => [`${k.name} (${k.cites})`, k] as const))('%s', (_, k) => {
		const o = adapt(k);
		expect(o.outcome).toBe(k.outcome);
		if (k.active) {
			expect(o.active).toBe(k.active);
		}

		for (const [where, state] of Object.entries(k.states ?? {})) {
			expect(find(o.tree, where)?.state, where).toBe(state);
		}

		for (const part of k.summaryHas ?? []) {
			expect(o.summary).toContain(part);
		}

		const baseline = k.baseline ? adaptInstance(instanceOf(k.baseline, k.name)) : o;
		const verdict = waitVerdict(o, baseline, options);
		if (k.exitCode === undefined) {
			expect(verdict.done, k.name).toBe(false);
		} else {
			expect(verdict).toMatchObject({done: true, exitCode: k.exitCode});
		}
	});

	test('nodes left behind by a fatal plan are stopped: raw status kept, reason given, not running', () => {
		const o = adapt(kudoCases.find(k => k.name === 'fatal-with-left-over-steps')!);
		expect(find(o.tree, 'deploy/main/sidecar')).toMatchObject({status: 'IN_PROGRESS', state: 'stopped', statusReason: 'stopped'});
	});

	test('a plan with no status of its own says so and keeps its raw (empty) word', () => {
		const o = adapt(kudoCases.find(k => k.name === 'missing-plan-status-fatal')!);
		expect(find(o.tree, 'deploy')).toMatchObject({status: '', state: 'failed', statusReason: 'missing'});
		expect(find(o.tree, 'deploy')?.note).toContain('plan status missing');
	});
});

describe('KUDO conformance: the built CLI', () => {
	let dir: string;
	beforeAll(() => {
		buildBin();
		dir = mkdtempSync(path.join(tmpdir(), 'planwatch-conformance-'));
	});
	afterAll(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	test('-o json gives every case its outcome, and no node of a failed plan counts as running', async () => {
		const file = path.join(dir, 'kudo.json');
		writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items: kudoCases.map(k => instanceOf(k, k.name))}));
		const r = await runBin(['-f', file, '-o', 'json']);
		expect(r.stderr).toBe('');
		const objects = (JSON.parse(r.stdout) as {objects: JsonObject[]}).objects;
		const all = (nodes: readonly JsonNode[]): JsonNode[] => nodes.flatMap(n => [n, ...all(n.children)]);
		for (const k of kudoCases) {
			const o = objects.find(x => x.name === k.name);
			expect(o?.outcome, k.name).toBe(k.outcome);
			if (k.outcome === 'failed') {
				expect(all(o!.tree).filter(n => n.state === 'running'), k.name).toEqual([]);
			}
		}

		expect(r.code).toBe(1);
	});
});

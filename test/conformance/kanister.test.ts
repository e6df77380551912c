/**
 * Kanister conformance: every case of kanister-cases.ts (each citing the kanisterio/kanister source it encodes)
 * through the adapter, the wait rules and the built CLI (`-f … -o json`).
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import {adaptEvent} from '../../source/model/adapt-event.js';
import type {PlanEvent, PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {waitVerdict} from '../../source/model/wait-rules.js';
import type {JsonObject} from '../../source/render/json.js';
import {buildBin, runBin} from '../helpers/run-bin.js';
import {actionSetOf, eventsOf, kanisterCases, lastProgress, type KanisterCase} from './kanister-cases.js';

const graceMs = 30_000;
const at = (offsetMs: number) => ({now: Date.parse(lastProgress) + offsetMs, deferGraceMs: graceMs, staleMs: 600_000});

function adapt(k: KanisterCase): PlanObject {
	const events = eventsOf(k).map(e => adaptEvent(e)).filter((e): e is PlanEvent => e !== undefined);
	return adaptActionSet(actionSetOf(k), () => undefined, events);
}

function walk(nodes: readonly PlanNode[]): PlanNode[] {
	return nodes.flatMap(n => [n, ...walk(n.children)]);
}

describe('Kanister conformance: adapter and wait rules', () => {
	test.each(kanisterCases.map(k => [`${k.name} (${k.cites})`, k] as const))('%s', (_, k) => {
		const o = adapt(k);
		expect(o.outcome).toBe(k.outcome);
		for (const part of k.summaryHas ?? []) {
			expect(o.summary).toContain(part);
		}

		for (const [action, state] of Object.entries(k.deferStates ?? {})) {
			const defer = o.tree.find(a => a.name === action)?.children.find(n => n.kind === 'deferPhase');
			expect(defer?.state, `${action}'s deferPhase`).toBe(state);
		}

		// Nothing may say complete while the ActionSet is not over.
		if (k.outcome === 'running') {
			expect(o.summary).not.toMatch(/^(\S+ )?completed$/);
		}

		// A running ActionSet with no (readable) status.actions: nothing in it has completed.
		if (k.rawActions !== undefined) {
			expect(walk(o.tree).map(n => n.state)).not.toContain('succeeded');
			expect(o.summary).not.toContain('complete');
		}

		const early = waitVerdict(o, o, at(1000));
		const late = waitVerdict(o, o, at(graceMs + 1000));
		switch (k.expected.wait) {
			case 'done': {
				expect(early).toMatchObject({done: true, exitCode: k.expected.exitCode});
				break;
			}

			case 'waiting': {
				expect(early.done).toBe(false);
				expect(late.done).toBe(false);
				break;
			}

			case 'grace': {
				expect(early).toMatchObject({done: false});
				expect(early.done ? '' : early.waitingFor).toContain('to start');
				expect(late).toMatchObject({done: true, exitCode: k.expected.thenExitCode});
				break;
			}
		}
	});

	test('a deferPhase the controller left pending while it runs keeps its raw word and says why', () => {
		const o = adapt(kanisterCases.find(k => k.name === 'multi-complete-other-defer-running')!);
		const defer = o.tree[1]!.children.at(-1)!;
		expect(defer).toMatchObject({status: 'pending', state: 'running', statusReason: 'running per progress'});
	});

	test('complete with a core phase pending is shown inconsistent in the tree, not as success', () => {
		const o = adapt(kanisterCases.find(k => k.name === 'invalid-complete')!);
		expect(o).toMatchObject({state: 'unknown', status: 'complete'});
		expect(o.tree[0]).toMatchObject({status: 'inconsistent', state: 'unknown'});
	});
});

describe('Kanister conformance: the built CLI', () => {
	let dir: string;
	beforeAll(() => {
		buildBin();
		dir = mkdtempSync(path.join(tmpdir(), 'planwatch-conformance-'));
	});
	afterAll(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	test('-o json gives every case its outcome', async () => {
		const file = path.join(dir, 'kanister.json');
		const items = kanisterCases.flatMap(k => [...eventsOf(k), actionSetOf(k)]);
		writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}));
		const r = await runBin(['-f', file, '-o', 'json']);
		expect(r.stderr).toBe('');
		const objects = (JSON.parse(r.stdout) as {objects: JsonObject[]}).objects;
		for (const k of kanisterCases) {
			const o = objects.find(x => x.name === k.name);
			expect(o?.outcome, k.name).toBe(k.outcome);
		}

		// Some case failed: the file's exit code says so.
		expect(r.code).toBe(1);
	});
});

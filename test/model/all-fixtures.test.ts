/** Every Instance and ActionSet fixture adapts without throwing, to sanitized one-line strings and unique node ids. */
import {readdirSync} from 'node:fs';
import {expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import {adaptEvent} from '../../source/model/adapt-event.js';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import type {PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {fixturesDir, loadFixture} from '../helpers/fixtures.js';
import {uncleanStrings} from '../helpers/clean-strings.js';

const files = ['kudo', 'kanister'].flatMap(dir =>
	readdirSync(fixturesDir + dir)
		.filter(f => f.endsWith('.yaml'))
		.map(f => `${dir}/${f}`),
);
const all = files.flatMap(f => loadFixture(f));
const byKind = (kind: string): KubeObject[] => all.filter(o => o.kind === kind);
const operatorVersions = new Map(byKind('OperatorVersion').map(o => [o.metadata?.name ?? '', o]));
const blueprints = new Map(byKind('Blueprint').map(o => [o.metadata?.name ?? '', o]));
const events = byKind('Event').flatMap(e => adaptEvent(e) ?? []);

function ids(nodes: readonly PlanNode[]): string[] {
	return nodes.flatMap(n => [n.id, ...ids(n.children)]);
}

const targets = files.filter(f => loadFixture(f).some(o => o.kind === 'Instance' || o.kind === 'ActionSet'));

test('the fixture set has both kinds', () => {
	expect(byKind('Instance').length).toBeGreaterThanOrEqual(10);
	expect(byKind('ActionSet').length).toBeGreaterThanOrEqual(12);
});

test.each(targets)('%s', file => {
	for (const o of loadFixture(file)) {
		let adapted: PlanObject | undefined;
		if (o.kind === 'Instance') {
			const spec = (o['spec'] ?? {}) as {operatorVersion?: {name?: unknown}};
			adapted = adaptInstance(o, operatorVersions.get(String(spec.operatorVersion?.name ?? '')));
		} else if (o.kind === 'ActionSet') {
			adapted = adaptActionSet(o, n => blueprints.get(n), events);
		}

		if (adapted) {
			expect(uncleanStrings(adapted)).toEqual([]);
			expect(adapted.summary.length).toBeGreaterThan(0);
			const list = ids(adapted.tree);
			expect(new Set(list).size).toBe(list.length);
		}
	}
});

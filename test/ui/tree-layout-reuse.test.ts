/**
 * The tree's layout and column widths after a change of a big plan, from the layout before: counted (the fields
 * read of nodes kept by identity), and checked equal to a fresh layout over random trees and changes.
 */
import {describe, expect, test} from 'vitest';
import type {NodeState, PlanNode} from '../../source/model/plan-tree.js';
import {treeColumnsBasis} from '../../source/ui/components/plan-tree-view.js';
import {createTheme} from '../../source/ui/theme.js';
import {rowIndex, treeLayout, visibleRows, type FoldOverrides} from '../../source/ui/tree-rows.js';
import {bigPlan} from '../helpers/ui-objects.js';
import {seededRandom} from '../helpers/random-strings.js';

/** `tree` with the node at `path` (child indexes) replaced by `change(node)`; every other subtree is the same object. */
function changedAt(tree: readonly PlanNode[], path: readonly number[], change: (node: PlanNode) => PlanNode): PlanNode[] {
	const [i, ...rest] = path;
	return tree.map((node, j) => (j !== i ? node : rest.length === 0 ? change(node) : {...node, children: changedAt(node.children, rest, change)}));
}

describe('treeLayout from the layout before', () => {
	test('one step of 500 moving on: the kept steps are not read, by the layout nor by the column widths', () => {
		const theme = createTheme({color: false, ascii: false});
		const reads = new Map<string, number>();
		const counting = (node: PlanNode): PlanNode => new Proxy(node, {
			get(target, field, receiver) {
				reads.set(node.id, (reads.get(node.id) ?? 0) + 1);
				return Reflect.get(target, field, receiver) as unknown;
			},
		});
		const plan = bigPlan(500, 250).tree[0]!;
		const phase = plan.children[0]!;
		const first = [{...plan, children: [{...phase, children: phase.children.map(counting)}]}];
		const overrides: FoldOverrides = new Map();
		const before = treeLayout(first, overrides);
		treeColumnsBasis(before.rows, new Map(), theme);
		const step = (state: NodeState, status: string) => (node: PlanNode): PlanNode => ({...node, state, status});
		const next = changedAt(changedAt(first, [0, 0, 250], step('succeeded', 'COMPLETE')), [0, 0, 251], step('running', 'IN_PROGRESS'));
		reads.clear();
		const after = treeLayout(next, overrides, first);
		treeColumnsBasis(after.rows, new Map(), theme);
		// Only the two steps that changed were read (through the new objects spread from them), and nothing else of the 498.
		expect([...reads.keys()].sort()).toEqual(['plan:deploy/phase:all/step:s250', 'plan:deploy/phase:all/step:s251']);
		expect(after.rows).toHaveLength(502);
		expect(after.rows.filter((row, i) => row === before.rows[i])).toHaveLength(498);
		expect(after.index).toBe(before.index);
	});

	test('whatever changed, the rows and the index equal a fresh layout (random trees, changes, folds)', () => {
		const states: NodeState[] = ['running', 'succeeded', 'failed', 'pending', 'inactive', 'retrying'];
		for (let seed = 1; seed <= 60; seed++) {
			const random = seededRandom(seed);
			const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
			let serial = 0;
			const make = (depth: number, kind: PlanNode['kind']): PlanNode => {
				const id = `n${serial++}`;
				const count = depth >= 3 ? 0 : Math.floor(random() * 4);
				const childKind = kind === 'plan' ? 'phase' : 'step';
				return {
					id,
					kind,
					name: id,
					status: 'x',
					state: pick(states),
					...(kind === 'plan' ? {active: random() < 0.5} : {}),
					children: Array.from({length: count}, () => make(depth + 1, childKind)),
				};
			};

			let tree: readonly PlanNode[] = Array.from({length: 1 + Math.floor(random() * 3)}, () => make(0, 'plan'));
			const folds = new Map<string, boolean>();
			for (let i = 0; i < 4; i++) {
				folds.set(`n${Math.floor(random() * serial)}`, random() < 0.5);
			}

			const overrides: FoldOverrides = folds;
			treeLayout(tree, overrides);
			for (let round = 0; round < 10; round++) {
				// A random node's path, then a change there: its state, its children (one added or dropped), or itself new.
				const path: number[] = [];
				let nodes = tree;
				while (nodes.length > 0) {
					const i = Math.floor(random() * nodes.length);
					path.push(i);
					if (random() < 0.4) {
						break;
					}

					nodes = nodes[i]!.children;
				}

				const what = random();
				const next = path.length === 0 ? tree : changedAt(tree, path, node => (
					what < 0.5 ? {...node, state: pick(states)}
						: what < 0.75 ? {...node, children: [...node.children, make(2, 'step')]}
							: what < 0.9 ? {...node, children: node.children.slice(1)}
								: {...node, id: `n${serial++}`}
				));
				const layout = treeLayout(next, overrides, tree);
				const fresh = visibleRows(next, overrides);
				expect(layout.rows, `seed ${seed} round ${round}`).toStrictEqual(fresh);
				expect(new Map(layout.index)).toStrictEqual(rowIndex(fresh));
				tree = next;
			}
		}
	});
});

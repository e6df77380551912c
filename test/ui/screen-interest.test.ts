import {describe, expect, test} from 'vitest';
import type {PlanObject} from '../../source/model/plan-tree.js';
import {cellWidths} from '../../source/ui/components/object-list.js';
import {listOnScreen, treeOnScreen} from '../../source/ui/on-screen.js';
import {changesShow} from '../../source/ui/screen-interest.js';
import {createTheme} from '../../source/ui/theme.js';
import {buildTreeList} from '../../source/ui/tree-list.js';
import {noFoldOverrides, type FoldOverrides} from '../../source/ui/tree-rows.js';
import {selectTree} from '../../source/ui/view-state.js';
import {mysqlDeploy, nightlyComplete} from '../helpers/ui-objects.js';
import {objectKey, type PlanNode} from '../../source/model/plan-tree.js';

const theme = createTheme({color: false, ascii: false});
const widths = (object: PlanObject) => cellWidths(object, theme);

function finished(i: number): PlanObject {
	return {...nightlyComplete(), name: `nightly-${String(i).padStart(3, '0')}`};
}

describe('whether a store change shows', () => {
	const objects = Array.from({length: 100}, (_, i) => finished(i));
	const list = buildTreeList(objects, {expand: new Map(), folds: new Map(), budget: 20});
	const interest = listOnScreen(list, {start: 0, end: 20}, new Map(), widths);
	const off = objects[60]!;
	const key = objectKey(off);

	test('an object in the window shows, one below it does not', () => {
		const on = objects[3]!;
		expect(changesShow(interest, [{key: objectKey(on), before: on, after: {...on, summary: 'x'}}])).toBe(true);
		// Nothing it draws changed: a new resourceVersion alone.
		expect(changesShow(interest, [{key: objectKey(on), before: on, after: {...on, resourceVersion: 'x'}}])).toBe(false);
		expect(changesShow(interest, [{key, before: off, after: {...off, resourceVersion: 'x'}}])).toBe(false);
		expect(changesShow(interest, [{key, eventsOnly: true}])).toBe(false);
	});

	test('off screen it shows when it changes group, a cell width or its timer', () => {
		expect(changesShow(interest, [{key, before: off, after: {...off, outcome: 'failed', state: 'failed'}}])).toBe(true);
		expect(changesShow(interest, [{key, before: off, after: {...off, percent: 5}}])).toBe(true);
		expect(changesShow(interest, [{key, before: off, after: {...off, summary: `${off.summary} and then some more words`}}])).toBe(true);
		expect(changesShow(interest, [{key, before: off, after: {...off, outcome: 'unknown'}}])).toBe(true);
		expect(changesShow(interest, [{key, before: off, after: {...off}, timingBefore: {startedAt: 1, endedAt: 2}, timingAfter: {startedAt: 1, endedAt: 3}}])).toBe(true);
		expect(changesShow(interest, [{key, before: off, after: {...off}, timingBefore: {startedAt: 1, endedAt: 2}, timingAfter: {startedAt: 1, endedAt: 2}}])).toBe(false);
	});

	test('unknown changes show; in the tree screen only the open object does', () => {
		expect(changesShow(interest, undefined)).toBe(true);
		const open = mysqlDeploy();
		const tree = treeOnScreen(objectKey(open), open, selectTree(open), {start: 0, end: 20}, undefined);
		expect(changesShow(tree, [{key: objectKey(open), before: open, after: {...open, summary: 'x'}}])).toBe(true);
		expect(changesShow(tree, [{key: objectKey(open), eventsOnly: true}])).toBe(true);
		expect(changesShow(tree, [{key, before: off, after: {...off, outcome: 'failed', state: 'failed'}}])).toBe(false);
	});
});

/** `object` with the node `id` (anywhere in its tree) changed by `change`. */
function withNode(object: PlanObject, id: string, change: Partial<PlanNode>): PlanObject {
	const visit = (nodes: readonly PlanNode[]): PlanNode[] =>
		nodes.map(node => (node.id === id ? {...node, ...change} : node.children.length > 0 ? {...node, children: visit(node.children)} : node));
	return {...object, tree: visit(object.tree)};
}

describe('a node inside a collapsed subtree of an object on screen', () => {
	const open = mysqlDeploy();
	const key = objectKey(open);
	// The backup plan (not the active one) starts folded; the deploy plan is open down to its steps.
	const hidden = 'plan:backup/phase:backup/step:pv';
	const visible = 'plan:deploy/phase:deploy/step:init';
	const tree = (folds: FoldOverrides = noFoldOverrides, cursor?: string) =>
		treeOnScreen(key, open, selectTree(open, folds, cursor), {start: 0, end: 30}, cursor);
	const list = (folds: FoldOverrides = noFoldOverrides) =>
		listOnScreen(buildTreeList([open], {expand: new Map([[key, true]]), folds: new Map([[key, folds]]), budget: 30}), {start: 0, end: 30}, new Map([[key, folds]]), widths);

	test.each([
		['the tree screen', tree],
		['the list, the object expanded', list],
	])('on %s: shows nothing, a node on a row does', (_where, screen) => {
		const change = (after: PlanObject) => changesShow(screen(), [{key, before: open, after}]);
		expect(change(withNode(open, hidden, {message: 'volume bound', status: 'COMPLETE', state: 'succeeded'}))).toBe(false);
		expect(change(withNode(open, visible, {message: 'waiting for the job'}))).toBe(true);
		// Not the active plan: it stays folded even when a step of it needs attention.
		expect(change(withNode(open, hidden, {state: 'running'}))).toBe(false);
		// A step more in the open phase: the rows change.
		const phase = open.tree[0]!.children[0]!;
		const more = {...open, tree: [{...open.tree[0]!, children: [{...phase, children: [...phase.children, {...phase.children[2]!, id: `${phase.id}/step:more`}]}]}, ...open.tree.slice(1)]};
		expect(change(more)).toBe(true);
		// Unfolded by the user, the same node is on a row.
		const unfolded = new Map([['plan:backup', true], ['plan:backup/phase:backup', true]]);
		expect(changesShow(screen(unfolded), [{key, before: open, after: withNode(open, hidden, {message: 'volume bound'})}])).toBe(true);
	});

	test("the object's own fields and its timer show", () => {
		expect(changesShow(tree(), [{key, before: open, after: {...open, steps: {done: 2, total: 3}}}])).toBe(true);
		expect(changesShow(tree(), [{key, before: open, after: {...open}, timingBefore: {startedAt: 1}, timingAfter: {startedAt: 2}}])).toBe(true);
		expect(changesShow(tree(), [{key, before: open, after: {...open, updatedAt: '2026-11-30T11:09:00Z', resourceVersion: '9'}}])).toBe(false);
	});

	test('the cursor resting on the running node moves with it, even to a hidden one', () => {
		// The deploy phase folded: its running step moves on below it, the cursor stays on the phase's row.
		const folded = new Map([['plan:deploy/phase:deploy', false]]);
		const moved = withNode(withNode(open, visible, {status: 'COMPLETE', state: 'succeeded'}), 'plan:deploy/phase:deploy/step:cleanup', {status: 'IN_PROGRESS', state: 'running'});
		expect(changesShow(tree(folded), [{key, before: open, after: moved}])).toBe(false);
		// Unfolded, the cursor row moves from init to cleanup (both rows' own fields change too).
		expect(changesShow(tree(), [{key, before: open, after: moved}])).toBe(true);
		// Folded, the top-level nodes only: the plan row's cursor stays, while a user's cursor never moves.
		expect(changesShow(tree(folded, visible), [{key, before: open, after: moved}])).toBe(false);
	});
});

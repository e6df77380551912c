/**
 * Which store changes the list's rows draw alone (row-feed.ts): those that change nothing the App computes from the
 * objects. Each condition is checked by a change that breaks only it.
 */
import {describe, expect, test} from 'vitest';
import type {Diagnosis} from '../../source/model/diagnosis.js';
import {objectKey, type PlanNode, type PlanObject} from '../../source/model/plan-tree.js';
import type {StoreChange} from '../../source/state/change-log.js';
import {cellWidths} from '../../source/ui/components/object-list.js';
import {listOnScreen} from '../../source/ui/on-screen.js';
import {RowFeed, rowLocalChanges, type RowLocalContext} from '../../source/ui/row-feed.js';
import {createTheme} from '../../source/ui/theme.js';
import {buildTreeList} from '../../source/ui/tree-list.js';
import {mysqlDeploy, nightlyComplete} from '../helpers/ui-objects.js';

const theme = createTheme({color: false, ascii: false});

function withNode(object: PlanObject, id: string, change: Partial<PlanNode>): PlanObject {
	const visit = (nodes: readonly PlanNode[]): PlanNode[] =>
		nodes.map(node => (node.id === id ? {...node, ...change} : node.children.length > 0 ? {...node, children: visit(node.children)} : node));
	return {...object, tree: visit(object.tree)};
}

const running = mysqlDeploy();
const stepsOf = (o: PlanObject) => o.tree[0]!.children[0]!.children;
const key = objectKey(running);
const others = Array.from({length: 50}, (_, i) => ({...nightlyComplete(), name: `nightly-${String(i).padStart(3, '0')}`}));
const objects = [running, ...others];
const list = buildTreeList(objects, {expand: new Map([[key, true]]), folds: new Map(), budget: 30});
const screen = listOnScreen(list, {start: 0, end: 30}, new Map(), object => cellWidths(object, theme));
const initStep = 'plan:deploy/phase:deploy/step:init';

function context(more: Partial<RowLocalContext> = {}): RowLocalContext {
	return {enabled: true, screen, folds: new Map(), widths: object => cellWidths(object, theme), eta: undefined, explain: () => undefined, ...more};
}

function feed(...registered: PlanObject[]): RowFeed {
	const f = new RowFeed();
	for (const object of registered) {
		f.register(objectKey(object), object);
	}

	return f;
}

const change = (after: PlanObject, before: PlanObject = running): StoreChange => ({key: objectKey(before), before, after});

describe('a change its rows draw alone', () => {
	test('a step message of a running object whose row is on screen: its rows', () => {
		const after = withNode(running, initStep, {message: 'waiting for the job'});
		expect(rowLocalChanges(context(), feed(running), [change(after)])).toEqual([{key, object: after}]);
		// The same summary width: the row's MESSAGE cell.
		const summary = {...running, summary: running.summary.replace('init', 'tini')};
		expect(rowLocalChanges(context(), feed(running), [change(summary)])).toEqual([{key, object: summary}]);
	});

	test('a change that shows nothing is left out; one that shows of an object without its row on screen renders the App', () => {
		const off = others[40]!;
		expect(rowLocalChanges(context(), feed(running), [change({...off, resourceVersion: 'x'}, off)])).toEqual([]);
		const other = others[2]!;
		expect(rowLocalChanges(context(), feed(running), [change({...other, summary: `${other.summary}!`.slice(1)}, other)])).toBeUndefined();
	});

	test('an object the screen depends on without a row in the window: left out while its place, rows and widths stay', () => {
		// The first screen walks 30 rows for default expansion; the window shows 5.
		const small = listOnScreen(list, {start: 0, end: 5}, new Map(), object => cellWidths(object, theme));
		const walked = others[20]!;
		expect(small.objects.has(objectKey(walked))).toBe(true);
		const ctx = context({screen: small});
		const same = {...walked, summary: walked.summary.replace(/\w/, 'x'), updatedAt: 'later'};
		expect(rowLocalChanges(ctx, feed(running), [change(same, walked)])).toEqual([]);
		expect(rowLocalChanges(ctx, feed(running), [change({...walked, outcome: 'failed', state: 'failed'}, walked)])).toBeUndefined();
		expect(rowLocalChanges(ctx, feed(running), [change({...walked, summary: `${walked.summary} and more`}, walked)])).toBeUndefined();
	});

	test.each<[string, (o: PlanObject) => PlanObject]>([
		['a cell of another width', o => ({...o, summary: `${o.summary} and then some`})],
		['a new outcome', o => ({...o, outcome: 'failed', state: 'failed'})],
		['a tree row more', o => withNode(o, 'plan:deploy/phase:deploy', {children: [...stepsOf(o), {...stepsOf(o)[0]!, id: 'plan:deploy/phase:deploy/step:more'}]})],
		['a tree row of another node', o => withNode(o, 'plan:deploy/phase:deploy', {children: [...stepsOf(o).slice(0, -1), {...stepsOf(o).at(-1)!, id: 'plan:deploy/phase:deploy/step:other'}]})],
		['no tree left', o => ({...o, tree: []})],
	])('%s: the App renders', (_what, edit) => {
		const after = edit(running);
		expect(rowLocalChanges(context(), feed(running), [change(after)])).toBeUndefined();
	});

	test('a new timer, ETA or watch want, an events change, unknown changes, or the list not shown: the App renders', () => {
		const after = withNode(running, initStep, {message: 'waiting for the job'});
		const f = feed(running);
		expect(rowLocalChanges(context(), f, [{...change(after), timingBefore: {startedAt: 1}, timingAfter: {startedAt: 2}}])).toBeUndefined();
		expect(rowLocalChanges(context({eta: o => (o === after ? '~1m left' : '~2m left')}), f, [change(after)])).toBeUndefined();
		// The running step's logs: asked for by the new state only.
		const explain = (o: PlanObject): Diagnosis | undefined => (o === after ? {brief: 'x', log: {namespace: 'default', pod: 'p', container: 'c'}} as unknown as Diagnosis : undefined);
		expect(rowLocalChanges(context({explain}), f, [change(after)])).toBeUndefined();
		expect(rowLocalChanges(context(), f, [{key, eventsOnly: true}])).toBeUndefined();
		expect(rowLocalChanges(context(), f, undefined)).toBeUndefined();
		expect(rowLocalChanges(context({enabled: false}), f, [change(after)])).toBeUndefined();
	});
});

describe('the watch wants a change is checked against', () => {
	test("a change's earlier state, worked out as the last change's new one under the same render, is not worked out again", () => {
		let explained = 0;
		const ctx = context({
			explain: () => {
				explained++;
				return undefined;
			},
		});
		const f = feed(running);
		const first = withNode(running, initStep, {message: 'one'});
		const second = withNode(running, initStep, {message: 'two'});
		expect(rowLocalChanges(ctx, f, [change(first)])).toEqual([{key, object: first}]);
		const perState = explained / 2;
		expect(perState).toBeGreaterThan(0);
		// `first` was worked out above: only `second` is now.
		expect(rowLocalChanges(ctx, f, [change(second, first)])).toEqual([{key, object: second}]);
		expect(explained).toBe(3 * perState);
		// Another render's context: worked out again (the pods it reads may have changed).
		expect(rowLocalChanges(context({explain: ctx.explain}), f, [change(second, first)])).toEqual([{key, object: second}]);
		expect(explained).toBe(5 * perState);
	});
});

describe('the feed', () => {
	test('an entry applies while the row still has the object it was given; a newer prop stands it aside', () => {
		const f = feed(running);
		const next = {...running, summary: 'one'};
		f.publish(key, {object: next, timings: undefined, expectations: undefined});
		expect(f.entry(key, running)?.object).toBe(next);
		const later = {...running, summary: 'two'};
		expect(f.entry(key, later)).toBeUndefined();
		f.register(key, later);
		expect(f.entry(key, running)).toBeUndefined();
	});

	test('a row not on screen gets nothing; its listeners hear of its entries only', () => {
		const f = new RowFeed();
		let heard = 0;
		f.subscribe(key, () => heard++);
		f.publish(key, {object: running, timings: undefined, expectations: undefined});
		expect([heard, f.has(key)]).toEqual([0, false]);
		const unregister = f.register(key, running);
		f.publish('Instance/default/other', {object: running, timings: undefined, expectations: undefined});
		f.publish(key, {object: {...running}, timings: undefined, expectations: undefined});
		expect(heard).toBe(1);
		unregister();
		expect(f.has(key)).toBe(false);
	});
});

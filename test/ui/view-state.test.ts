import {describe, expect, test} from 'vitest';
import type {Command} from '../../source/ui/keymap.js';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
import {buildTreeList, rowAt, rowsIn} from '../../source/ui/tree-list.js';
import {initialViewState, reduceView, treeSelection, viewMode, type ViewContext, type ViewState} from '../../source/ui/view-state.js';
import {backupFailed, kafkaRetrying, mysqlDeploy, nightlyComplete} from '../helpers/ui-objects.js';

function run(state: ViewState, context: ViewContext, ...commands: Command[]): ViewState {
	return commands.reduce((s, command) => reduceView(s, {type: 'command', command, context}), state);
}

/** The selected row's name and the visible rows, indented by depth. */
function picture(state: ViewState, object: PlanObject): {selected: string | undefined; rows: string[]} {
	const {rows, cursor} = treeSelection(state, object);
	return {selected: rows[cursor]?.node.name, rows: rows.map(r => `${'  '.repeat(r.depth)}${r.node.name}`)};
}

const mysql = mysqlDeploy();
const tree: ViewContext = {object: mysql, page: 10};
const single = initialViewState([objectKey(mysql)]);

describe('start', () => {
	test('one target opens its tree with no list behind it; otherwise the list', () => {
		expect(single).toMatchObject({screen: 'tree', hasList: false, openKey: objectKey(mysql)});
		expect(initialViewState()).toMatchObject({screen: 'list', hasList: true});
		expect(initialViewState(['a', 'b'])).toMatchObject({screen: 'list', hasList: true});
	});
});

describe('tree', () => {
	test('up/down move and stop at the ends; g/G jump', () => {
		expect(picture(run(single, tree, 'cursor.down'), mysql).selected).toBe('cleanup');
		expect(picture(run(single, tree, 'cursor.down', 'cursor.down', 'cursor.down', 'cursor.down'), mysql).selected).toBe('restore');
		expect(picture(run(single, tree, 'cursor.top', 'cursor.up'), mysql).selected).toBe('deploy');
		expect(picture(run(single, tree, 'cursor.bottom'), mysql).selected).toBe('restore');
	});

	test('PgDn/PgUp move by a page', () => {
		const big: ViewContext = {...tree, page: 4};
		const s = run(single, big, 'cursor.top', 'cursor.pageDown');
		expect(treeSelection(s, mysql).cursor).toBe(2);
		expect(treeSelection(run(s, big, 'cursor.pageUp'), mysql).cursor).toBe(0);
	});

	test('← on a step goes to its phase, ← again collapses it, → expands it again', () => {
		const onPhase = run(single, tree, 'fold.collapse');
		expect(picture(onPhase, mysql).selected).toBe('deploy');
		expect(treeSelection(onPhase, mysql).cursor).toBe(1);
		const collapsed = run(onPhase, tree, 'fold.collapse');
		expect(picture(collapsed, mysql).rows).toEqual(['deploy', '  deploy', 'backup', 'restore']);
		const expanded = run(collapsed, tree, 'fold.expand');
		expect(picture(expanded, mysql).rows).toHaveLength(7);
		// → on an open node steps into its first child.
		expect(picture(run(expanded, tree, 'fold.expand'), mysql).selected).toBe('deploy');
		expect(treeSelection(run(expanded, tree, 'fold.expand'), mysql).cursor).toBe(2);
	});

	test('space/enter toggles the node under the cursor; a leaf does nothing', () => {
		const onBackup = run(single, tree, 'cursor.bottom', 'cursor.up');
		expect(picture(onBackup, mysql).selected).toBe('backup');
		// Opening the older plan shows where its (failed) last run stopped.
		expect(picture(run(onBackup, tree, 'fold.toggle'), mysql).rows.slice(5, -1)).toEqual(['backup', '  backup', '    pv', '    backup', '    cleanup']);
		expect(picture(run(onBackup, tree, 'fold.toggle', 'fold.toggle'), mysql).rows).toHaveLength(7);
		expect(run(single, tree, 'fold.toggle')).toBe(single);
	});

	test('x expands everything, then collapses everything with the cursor on its plan', () => {
		const all = run(single, tree, 'fold.all');
		expect(picture(all, mysql).rows).toHaveLength(3 + 3 * 2 + 3 + 2);
		expect(picture(all, mysql).selected).toBe('init');
		const none = run(all, tree, 'fold.all');
		expect(picture(none, mysql)).toEqual({selected: 'deploy', rows: ['deploy', 'backup', 'restore']});
	});

	test('fold state and cursor are kept per object', () => {
		const kafka = kafkaRetrying();
		const s = run(single, tree, 'fold.all', 'fold.all');
		expect(picture(s, kafka).rows).toHaveLength(5);
		expect(picture(s, kafka).selected).toBe('service');
	});
});

describe('list', () => {
	const objects = [backupFailed(), nightlyComplete(), mysql];
	// Budget 0: every object collapsed.
	const list: ViewContext = {list: buildTreeList(objects, {expand: new Map(), folds: new Map(), budget: 0}), page: 10};
	const start = initialViewState();

	test('moves over the rows and opens the one under the cursor', () => {
		const opened = run(start, list, 'cursor.down', 'cursor.down', 'list.open');
		expect(opened).toMatchObject({screen: 'tree', openKey: objectKey(mysql), listCursor: objectKey(mysql)});
	});

	test('filter: / starts the prompt, typing and erasing edit it, enter keeps it, esc clears it', () => {
		const typing = run(start, list, 'filter.start');
		expect(viewMode(typing)).toBe('filter');
		const typed = reduceView(reduceView(typing, {type: 'filter.type', text: 'my'}), {type: 'filter.type', text: 'sqx'});
		expect(typed.filter).toBe('mysqx');
		const erased = run(typed, list, 'filter.erase');
		expect(erased.filter).toBe('mysq');
		expect(run(erased, list, 'filter.commit')).toMatchObject({filter: 'mysq', filterEditing: false});
		expect(run(erased, list, 'filter.cancel')).toMatchObject({filter: '', filterEditing: false});
		// Text only goes to an open prompt.
		expect(reduceView(start, {type: 'filter.type', text: 'x'})).toBe(start);
	});

	test('f toggles failing only', () => {
		expect(run(start, list, 'failing.toggle').failingOnly).toBe(true);
		expect(run(start, list, 'failing.toggle', 'failing.toggle').failingOnly).toBe(false);
	});
});

describe('list as a tree', () => {
	const objects = [backupFailed(), nightlyComplete(), mysql];
	const budget = 30;
	const listOf = (state: ViewState) => buildTreeList(objects, {expand: state.listExpand, folds: state.folds, budget});
	/** Each command acts on the list as the state before it draws it. */
	const press = (state: ViewState, ...commands: Command[]): ViewState =>
		commands.reduce((s, command) => reduceView(s, {type: 'command', command, context: {list: listOf(s), page: 10}}), state);
	/** The rows as drawn (a node indented by its depth in the list), `>` at the cursor. */
	const picture = (state: ViewState): string[] => {
		const shown = listOf(state);
		const at = state.listCursor === undefined
			? 0
			: rowsIn(shown, 0, shown.total).findIndex(r => r.key === state.listCursor && (r.type === 'node' ? r.row.node.id === state.listNode : state.listNode === undefined));
		return rowsIn(shown, 0, shown.total).map((r, i) => `${i === at ? '>' : ' '}${r.type === 'object' ? r.object.name : `${'  '.repeat(r.row.depth)}${r.row.node.name}`}`);
	};

	const start = initialViewState();
	const mysqlRows = [' mysql-instance', '   deploy', '     deploy', '       deploy', '       init', '       cleanup', '   backup', '   restore'];

	test('the running object starts expanded, finished ones collapsed; the cursor moves through objects and nodes', () => {
		expect(picture(start)).toEqual(['>backup-glptq', ' nightly-x7k2q', ...mysqlRows]);
		const s = press(start, 'cursor.down', 'cursor.down', 'cursor.down', 'cursor.down');
		expect(s).toMatchObject({listCursor: objectKey(mysql), listNode: 'plan:deploy/phase:deploy'});
		expect(picture(s)[4]).toBe('>    deploy');
	});

	test('→ expands a collapsed object, ← collapses it; on a node they fold as in the tree screen', () => {
		const backup = press(start, 'fold.expand');
		expect(picture(backup).slice(0, 8)).toEqual([
			'>backup-glptq', '   backup', '     createBackupPod', '     waitForPodReady', '     copyFiles', '     stopBackup', '     deferPhase', ' nightly-x7k2q',
		]);
		// → on an open object steps into its first node; ← on a top-level node goes back to the object.
		const inside = press(backup, 'fold.expand');
		expect(inside).toMatchObject({listCursor: objectKey(objects[0]!), listNode: 'action:0:backup'});
		expect(press(inside, 'fold.collapse', 'fold.collapse')).toMatchObject({listNode: undefined});
		expect(picture(press(inside, 'fold.collapse', 'fold.collapse', 'fold.collapse'))).toEqual(picture(start));
		// ← on a step goes to its phase, then collapses the phase.
		const onStep = press(start, 'cursor.bottom', 'cursor.up', 'cursor.up', 'cursor.up');
		expect(onStep.listNode).toBe('plan:deploy/phase:deploy/step:init');
		const phaseClosed = press(onStep, 'fold.collapse', 'fold.collapse');
		expect(picture(phaseClosed)).toEqual([' backup-glptq', ' nightly-x7k2q', ' mysql-instance', '   deploy', '>    deploy', '   backup', '   restore']);
		// Folds are shared with the object's own tree screen.
		expect(treeSelection(phaseClosed, mysql).rows.map(r => r.node.name)).toEqual(['deploy', 'deploy', 'backup', 'restore']);
	});

	test('space toggles, x expands or collapses the whole object', () => {
		const collapsed = press(start, 'cursor.bottom', 'cursor.top', 'cursor.down', 'cursor.down', 'fold.toggle');
		expect(picture(collapsed)).toEqual([' backup-glptq', ' nightly-x7k2q', '>mysql-instance']);
		const all = press(collapsed, 'fold.all');
		expect(picture(all)).toHaveLength(3 + 14);
		expect(picture(press(all, 'cursor.bottom', 'fold.all'))).toEqual(picture(collapsed));
	});

	test('enter on a node opens the object full screen with its cursor on that node; esc comes back to the same row', () => {
		const onCleanup = press(start, 'cursor.bottom', 'cursor.up', 'cursor.up');
		const opened = press(onCleanup, 'list.open');
		expect(opened).toMatchObject({screen: 'tree', openKey: objectKey(mysql)});
		expect(treeSelection(opened, mysql).rows[treeSelection(opened, mysql).cursor]?.node.id).toBe('plan:deploy/phase:deploy/step:cleanup');
		const back = reduceView(opened, {type: 'command', command: 'back', context: {page: 10}});
		expect(picture(back)).toEqual(picture(onCleanup));
	});

	test('a cursor on a node that folds away lands on the nearest visible row of its object', () => {
		const onStep = press(start, 'cursor.bottom', 'cursor.up', 'cursor.up');
		const shown = buildTreeList(objects, {expand: new Map([[objectKey(mysql), false]]), folds: new Map(), budget});
		expect(rowAt(shown, 2)).toMatchObject({type: 'object', key: objectKey(mysql)});
		expect(press({...onStep, listExpand: new Map([[objectKey(mysql), false]])}, 'cursor.up').listCursor).toBe(objectKey(objects[1]!));
	});
});

describe('esc and quit', () => {
	const list: ViewContext = {list: buildTreeList([mysql], {expand: new Map(), folds: new Map(), budget: 0}), page: 10};

	test('esc closes help, then events, then goes back to the list, then clears the filter, then quits', () => {
		let s = run(initialViewState(), list, 'filter.start');
		s = reduceView(s, {type: 'filter.type', text: 'my'});
		s = run(s, list, 'filter.commit', 'list.open', 'events.toggle', 'help.toggle');
		expect(viewMode(s)).toBe('help');
		s = run(s, list, 'back');
		expect(s).toMatchObject({help: false, events: true, screen: 'tree'});
		s = run(s, list, 'back');
		expect(s).toMatchObject({events: false, screen: 'tree'});
		s = run(s, list, 'back');
		expect(s).toMatchObject({screen: 'list', filter: 'my', quit: false});
		s = run(s, list, 'back');
		expect(s).toMatchObject({filter: '', quit: false});
		expect(run(s, list, 'back').quit).toBe(true);
	});

	test('in a tree with no list, esc quits', () => {
		expect(run(single, tree, 'back').quit).toBe(true);
	});

	test('q quits from anywhere; after quitting nothing changes', () => {
		const quit = run(single, tree, 'help.toggle', 'quit');
		expect(quit.quit).toBe(true);
		expect(run(quit, tree, 'help.toggle', 'cursor.down')).toBe(quit);
	});
});

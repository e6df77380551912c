import {describe, expect, test} from 'vitest';
import type {Command} from '../../source/ui/keymap.js';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
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
const tree: ViewContext = {object: mysql, listKeys: [], page: 10};
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
	const list: ViewContext = {listKeys: objects.map(o => objectKey(o)), page: 10};
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

describe('esc and quit', () => {
	const list: ViewContext = {listKeys: [objectKey(mysql)], page: 10};

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

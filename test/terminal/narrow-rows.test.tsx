/**
 * Issue #20 at 100 columns with NO_COLOR: a running row whose text is long (a Kanister action's object) lost its
 * timer to the line's end (`⠇…`), and in --ascii the timer was gone and its message cut without a marker. The
 * object's name and the message give way; the status, the spinner and the timer stay.
 */
import {afterEach, describe, expect, test} from 'vitest';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
import {objectTimingId, type NodeTiming} from '../../source/state/store.js';
import {appElement} from '../helpers/app-element.js';
import {cleanupTerminals, renderInTerminal} from '../helpers/terminal.js';
import {backupFailed, mysqlDeploy, mysqlDeployTimings, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupTerminals);

/** The failed backup, running instead, on a StatefulSet with a long name, its copyFiles phase saying a lot. */
function longBackup(): PlanObject {
	const failed = backupFailed();
	const [action] = failed.tree;
	return {
		...failed,
		outcome: 'running',
		state: 'running',
		status: 'running',
		summary: 'backup running phase copyFiles (62%)',
		tree: [{
			...action!,
			state: 'running',
			status: 'running',
			detail: 'statefulset postgres-production-eu-west-1/my-release-postgresql-primary-replicas',
			children: action!.children.map(c => (c.name === 'copyFiles' ? {...c, state: 'running', status: 'running', message: `uploading ${'chunk '.repeat(30)}`} : c)),
		}],
	};
}

function render(columns: number, options: {color: boolean; ascii: boolean}) {
	const backup = longBackup();
	const mysql = mysqlDeploy();
	const action = 'action:0:backup';
	const timings = new Map<string, ReadonlyMap<string, NodeTiming>>([
		[objectKey(backup), new Map([[objectTimingId, {startedAt: t0 - 61_000}], [action, {startedAt: t0 - 61_000}], [`${action}/phase:copyFiles`, {startedAt: t0 - 38_000}]])],
		[objectKey(mysql), mysqlDeployTimings()],
	]);
	const {element} = appElement({snapshot: snapshotOf({objects: [backup, mysql], timings}), ...options});
	return renderInTerminal(element, {columns, rows: 30});
}

describe('a long running row keeps its status and timer', () => {
	test.each([
		{columns: 100, color: false, ascii: false, timer: /running +[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 1:01$/, copy: /running +[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 0:38 {2}uploading .*…$/},
		{columns: 80, color: false, ascii: false, timer: /running +[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 1:01$/, copy: /running +[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 0:38 {2}uploading .*…$/},
		{columns: 100, color: true, ascii: true, timer: /running +1:01$/, copy: /running +0:38 {2}uploading .*\.\.\.$/},
		{columns: 80, color: true, ascii: true, timer: /running +1:01$/, copy: /running +0:38 {2}uploading .*\.\.\.$/},
	])('$columns columns, colour $color, ascii $ascii', async ({columns, color, ascii, timer, copy}) => {
		const ui = render(columns, {color, ascii});
		const screen = await ui.waitForScreen(s => s.some(line => line.includes('copyFiles')), 'the open backup tree');
		const actionRow = screen.find(line => /^ {4}. .{0,6}backup {2}statefulset /.test(line)) ?? '';
		// The object's name gave way, marked; the status and the timer are whole at the end.
		expect(actionRow, screen.join('\n')).toMatch(ascii ? /\.\.\./ : /…/);
		expect(actionRow, screen.join('\n')).toMatch(timer);
		expect(screen.find(line => line.includes('copyFiles')), screen.join('\n')).toMatch(copy);
		for (const line of screen) {
			expect([...line].length, line).toBeLessThanOrEqual(columns);
		}
	});
});

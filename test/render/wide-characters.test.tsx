/**
 * Wide characters (CJK, fullwidth, emoji) take two cells: columns after them line up in plain output and in the
 * TUI, measured with the one width function (string-width, as Ink lays out).
 */
import stringWidth from 'string-width';
import {afterEach, describe, expect, it} from 'vitest';
import type {PlanObject} from '../../source/model/plan-tree.js';
import {renderObjectPlain} from '../../source/render/plain.js';
import {cellWidth, fit, truncate} from '../../source/ui/cell-text.js';
import {renderApp} from '../helpers/render-app.js';
import {planNode, snapshotOf, t0} from '../helpers/ui-objects.js';
import {cleanupUi} from '../helpers/ui.js';
import {objectKey} from '../../source/model/plan-tree.js';

afterEach(cleanupUi);

const names = ['db', '数据库备份', 'ｆｕｌｌｗｉｄｔｈ', '😀-emoji', 'plain'];

const wide: PlanObject = {
	kind: 'Instance',
	namespace: 'default',
	name: 'wide',
	outcome: 'running',
	summary: 'deploy is running',
	active: 'deploy',
	state: 'running',
	status: 'IN_PROGRESS',
	wait: {kind: 'Instance', scheduledPlan: 'deploy', scheduledUid: 'u', planUids: {deploy: 'u'}, activePlan: 'deploy', activeStatus: 'IN_PROGRESS', queued: false},
	tree: [
		planNode('plan', 'plan:deploy', 'deploy', 'IN_PROGRESS', 'running', {
			strategy: 'serial',
			active: true,
			children: [
				planNode('phase', 'plan:deploy/phase:p', 'p', 'IN_PROGRESS', 'running', {
					strategy: 'serial',
					children: names.map(n => planNode('step', `plan:deploy/phase:p/step:${n}`, n, n === 'db' ? 'COMPLETE' : 'PENDING', n === 'db' ? 'succeeded' : 'pending')),
				}),
			],
		}),
	],
};

/** Display column where `word` starts in `line`. */
function columnOf(line: string, word: string): number {
	const at = line.indexOf(word);
	return at === -1 ? -1 : stringWidth(line.slice(0, at));
}

describe('wide characters line up', () => {
	it('cell-text measures and cuts by display width', () => {
		expect(cellWidth('数据库')).toBe(6);
		expect(cellWidth('😀a')).toBe(3);
		expect(truncate('数据库备份', 5)).toBe('数据…');
		expect(truncate('数据库备份', 4, '')).toBe('数据');
		expect(fit('数据', 6)).toBe('数据  ');
		expect(cellWidth(fit('数据库备份', 7))).toBe(7);
	});

	it('plain', () => {
		const lines = renderObjectPlain(wide, undefined, {now: t0, ascii: false, color: false, timeZone: 'UTC'});
		const rows = names.map(n => lines.find(l => l.includes(n))!);
		const columns = rows.map(l => columnOf(l, l.includes('COMPLETE') ? 'COMPLETE' : 'PENDING'));
		expect(new Set(columns).size, lines.join('\n')).toBe(1);
	});

	it('tui', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [wide]}), targets: [objectKey(wide)], columns: 100});
		const frame = await app.waitForFrame(f => f.includes('plain'));
		const rows = names.map(n => frame.split('\n').find(l => l.includes(n))!);
		const columns = rows.map(l => columnOf(l, l.includes('COMPLETE') ? 'COMPLETE' : 'PENDING'));
		expect(new Set(columns).size, frame).toBe(1);
	});
});

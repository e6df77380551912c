import {afterEach, describe, expect, test} from 'vitest';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
import {sanitizeLine} from '../../source/model/sanitize.js';
import {appElement} from '../helpers/app-element.js';
import {cleanupTerminals, renderInTerminal} from '../helpers/terminal.js';
import {backupFailed, planEvent, snapshotOf} from '../helpers/ui-objects.js';

afterEach(cleanupTerminals);

/** What a hostile controller, pod or user could put in a step message, an event or an object name. */
const hostile = [
	'\u001B]0;pwned-title\u0007',
	'\u001B]52;c;cm0gLXJmIH4=\u0007',
	'\u001B[2J\u001B[H',
	'\u001B[31mRED\u001B[0m',
	'\u001B]8;;https://evil.example\u001B\\click\u001B]8;;\u001B\\',
	'over\rwrite',
	'bell\u0007',
	'back\bspace',
	'\u202Eevil-bidi',
	'\u009B2J',
].join(' ');

describe('hostile text', () => {
	test('strings from the cluster (sanitized by the adapters, as in production) render inert', async () => {
		const base = backupFailed();
		const clean = (text: string) => sanitizeLine(text);
		const action = base.tree[0]!;
		const object: PlanObject = {
			...base,
			summary: clean(`backup failed ${hostile}`),
			tree: [
				{
					...action,
					detail: clean(`statefulset ${hostile}`),
					children: action.children.map(phase => (phase.name === 'copyFiles' ? {...phase, message: clean(`copy failed ${hostile}\nsecond line`)} : phase)),
				},
			],
		};
		const events = [planEvent('Warning', clean(`Reason${hostile}`), clean(`event ${hostile}`), 5)];
		const {element} = appElement({snapshot: snapshotOf({objects: [object], events: new Map([[objectKey(object), events]])}), targets: [objectKey(object)]});
		const ui = renderInTerminal(element, {columns: 120, rows: 30});
		await ui.waitForScreen(s => s.some(line => line.includes('deferPhase')), 'the tree');
		await ui.press('e');
		const screen = await ui.waitForScreen(s => s.some(line => line.startsWith('EVENTS')), 'the events pane');
		const text = screen.join('\n');

		// Nothing was executed: no title, the screen was not cleared or overwritten, the layout is intact.
		expect(ui.titles).toEqual([]);
		expect(screen[0]).toMatch(/^planwatch · kind-prod · default · /);
		expect(screen[1]).toMatch(/^ActionSet kanister\/backup-glptq/);
		expect(screen.filter(line => line.startsWith('planwatch'))).toHaveLength(1);
		const row = screen.find(line => line.startsWith('›'))!;
		expect(row).toMatch(/✖ copyFiles +failed +copy failed/);
		expect(text).toContain('EVENTS kanister/backup-glptq');
		// What is left is plain, visible text.
		expect(text).toContain('RED');
		expect(text).toContain('evil-bidi');
		expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
		// Ink's own output keeps only its styling and cursor control: no OSC (title, clipboard, hyperlink) reached the terminal.
		expect(ui.raw()).not.toMatch(/\u001B\]/);
		expect(ui.raw()).not.toContain('\u0007');
		expect(ui.raw()).not.toContain('\u009B');
	});
});

/**
 * A 1 Hz tick changes timers and spinners only. Their rows keep blank cells for them and draw them on top as
 * texts of their own, so the layout measures those few cells on a tick, never a whole row again (measuring and
 * tokenizing each running row's text every second was most of an idle frame). The screen after the tick must
 * still be the screen a full draw at that second gives.
 */
import '../helpers/force-color.js';
import {EventEmitter} from 'node:events';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {render} from 'ink';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {appElement} from '../helpers/app-element.js';
import {cleanupTerminals, renderInTerminal} from '../helpers/terminal.js';
import {FakeStdin} from '../helpers/ui.js';
import {waitUntil} from '../helpers/wait-until.js';
import {mysqlDeploy, mysqlDeployTimings, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(() => {
	cleanupTerminals();
	vi.restoreAllMocks();
});

const root = path.resolve(import.meta.dirname, '../..');
// The width cache the patched Ink measures every text it has not measured before through (patches/ink+8.0.0.patch, build/output.js).
const {outputCaches} = (await import(pathToFileURL(path.join(root, 'node_modules/ink/build/output.js')).href)) as {outputCaches: {getStringWidth(text: string): number}};

function app(targets?: readonly string[]) {
	const object = mysqlDeploy();
	return appElement({snapshot: snapshotOf({objects: [object], timings: new Map([[objectKey(object), mysqlDeployTimings()]]), lastEventAt: t0 - 3000}), targets});
}

type DomNode = {readonly nodeName: string; readonly childNodes?: readonly DomNode[]; internal_squashedText?: string};
// Ink's instances by stdout: the way to its DOM (build/instances.js).
const {default: instances} = (await import(pathToFileURL(path.join(root, 'node_modules/ink/build/instances.js')).href)) as {default: WeakMap<object, {rootNode: DomNode}>};

class Stdout extends EventEmitter {
	readonly isTTY = true;
	readonly columns = 120;
	readonly rows = 30;
	written = '';
	write = (data: string) => {
		this.written += data;
		return true;
	};
}

function textNodes(node: DomNode): DomNode[] {
	return node.nodeName === 'ink-text' ? [node] : (node.childNodes ?? []).flatMap(textNodes);
}

describe.each([
	['the list with its running object open', undefined],
	['the tree', [objectKey(mysqlDeploy())]],
])('a tick in %s', (_what, targets) => {
	test('measures the timers and spinners, not the rows around them', async () => {
		const shown = app(targets);
		const ui = renderInTerminal(shown.element, {columns: 120, rows: 30, incremental: true});
		await ui.waitForScreen(s => s.some(line => line.includes('2:29')), 'the running step at 2:29');
		const measured: string[] = [];
		const measure = outputCaches.getStringWidth.bind(outputCaches);
		vi.spyOn(outputCaches, 'getStringWidth').mockImplementation((text: string) => {
			measured.push(text);
			return measure(text);
		});
		shown.clock.advance(1000);
		await ui.waitForScreen(s => s.some(line => line.includes('2:30')), 'the running step at 2:30');
		// Names are in the rows' (and the header's) own texts only.
		expect(measured.filter(text => /kind-prod|mysql-instance|init|deploy/.test(text))).toEqual([]);

		const fresh = app(targets);
		fresh.clock.advance(1000);
		const full = renderInTerminal(fresh.element, {columns: 120, rows: 30});
		await full.waitForScreen(s => s.some(line => line.includes('2:30')), 'a full draw at 2:30');
		expect(ui.screen()).toEqual(full.screen());
	});

	test('squashes again only the texts that follow the clock, not the header line or the rows', async () => {
		const shown = app(targets);
		const stdout = new Stdout();
		const instance = render(shown.element, {
			stdout: stdout as unknown as NodeJS.WriteStream,
			stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
			interactive: true,
			exitOnCtrlC: false,
			patchConsole: false,
			incrementalRendering: true,
		});
		try {
			await waitUntil(() => stdout.written.includes('2:29'), 'the running step at 2:29');
			// Past the effects of the first frames (Ink's window size is set again once mounted).
			await new Promise(resolve => setTimeout(resolve, 200));
			// Every text's squashed content, watched: who sets it again during the tick.
			const redone = new Set<string>();
			for (const node of textNodes(instances.get(stdout)!.rootNode)) {
				let value = node.internal_squashedText;
				Object.defineProperty(node, 'internal_squashedText', {
					get: () => value,
					set(next: string | undefined) {
						value = next;
						if (next !== undefined) {
							redone.add(next);
						}
					},
				});
			}

			shown.clock.advance(1000);
			await waitUntil(() => stdout.written.includes('2:30'), 'the running step at 2:30');
			expect([...redone].some(text => text.includes('2:30'))).toBe(true);
			expect([...redone].filter(text => /kind-prod|mysql-instance|init|deploy/.test(text))).toEqual([]);
		} finally {
			instance.unmount();
		}
	});
});

/**
 * `--ascii` output is ASCII: every fixture through every text output (plain tree, plain log lines, TUI tree,
 * list, events, help), scanned for any byte above 0x7F. Cluster text in the fixtures is ASCII, so anything
 * else is planwatch's own (the sanitizer's line-break marker once leaked this way).
 */
import {readdirSync, readFileSync} from 'node:fs';
import {afterEach, describe, expect, it} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {formatFinished, formatObjectLine, renderPlain} from '../../source/render/plain.js';
import {FileSource, parseObjects} from '../../source/sources/file-source.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store, type StoreSnapshot} from '../../source/state/store.js';
import {fixturesDir} from '../helpers/fixtures.js';
import {renderApp} from '../helpers/render-app.js';
import {cleanupUi} from '../helpers/ui.js';

afterEach(cleanupUi);

const files = ['kudo', 'kanister'].flatMap(dir =>
	readdirSync(fixturesDir + dir)
		.filter(f => f.endsWith('.yaml'))
		.map(f => `${dir}/${f}`),
);

function load(file: string): {snapshot: StoreSnapshot; now: number} {
	const objects = parseObjects(readFileSync(fixturesDir + file, 'utf8'), file);
	const clock = new FakeClock(Date.parse('2025-06-02T10:30:00Z'));
	const store = new Store(clock);
	new FileSource(objects).start(store.apply);
	return {snapshot: store.getSnapshot(), now: clock.now()};
}

/** Non-ASCII characters of `text`, as U+XXXX, with a little context. */
function nonAscii(text: string): string[] {
	return [...text.matchAll(/[^\u0000-\u007F]/gu)].map(m => `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} in "${text.slice(Math.max(0, m.index - 20), m.index + 20)}"`);
}

describe('--ascii output of every fixture is ASCII', () => {
	it('has fixtures with a line break inside a message (the marker case)', () => {
		expect(files.some(f => readFileSync(fixturesDir + f, 'utf8').includes('\\nsecond line'))).toBe(true);
	});

	it.each(files)('plain: %s', file => {
		const {snapshot, now} = load(file);
		const text = [
			renderPlain(snapshot, {now, ascii: true, color: false, timeZone: 'UTC'}),
			...snapshot.objects.flatMap(o => [
				formatObjectLine(o, now, {ascii: true, color: false, timeZone: 'UTC'}),
				formatFinished(o, snapshot.timings.get(objectKey(o)), now, {ascii: true, color: false, timeZone: 'UTC'}),
			]),
		].join('\n');
		expect(nonAscii(text)).toEqual([]);
	});

	it.each(files)('tui: %s', async file => {
		const {snapshot} = load(file);
		const frames: string[] = [];
		const list = renderApp({snapshot, ascii: true, columns: 200, rows: 60});
		await list.press('e');
		frames.push(list.lastRawFrame());
		list.unmount();
		for (const object of snapshot.objects) {
			const app = renderApp({snapshot, ascii: true, columns: 200, rows: 60, targets: [objectKey(object)]});
			await app.press('x');
			frames.push(app.lastRawFrame());
			// Every row once, so the detail lines under the tree show each node's full message.
			for (let i = 0; i < 40; i++) {
				await app.press('j');
				frames.push(app.lastRawFrame());
			}

			await app.press('e');
			frames.push(app.lastRawFrame());
			await app.press('?');
			frames.push(app.lastRawFrame());
			app.unmount();
		}

		expect(nonAscii(frames.join('\n'))).toEqual([]);
	});
});

import {describe, expect, it} from 'vitest';
import {renderJson} from '../../source/render/json.js';
import {renderPlain} from '../../source/render/plain.js';
import {printerFor} from '../../source/render/printer.js';
import type {Transition} from '../../source/state/store.js';
import {backupDeferFailed, mysqlDeploying} from '../helpers/plan-objects.js';
import {snapshotOf} from '../helpers/ui-objects.js';

const at = Date.parse('2026-11-30T11:03:22Z');
const snapshot = snapshotOf({objects: [mysqlDeploying, backupDeferFailed]});
const options = {ascii: false, color: false, timeZone: 'UTC'};
const transition: Transition = {
	seq: 1,
	at,
	objectKey: 'Instance/default/mysql-instance',
	kind: 'Instance',
	namespace: 'default',
	name: 'mysql-instance',
	path: ['deploy'],
	from: 'IN_PROGRESS',
	to: 'COMPLETE',
};
const result = {exitCode: 1, message: 'backup failed'};

describe('printers: one per format, picked once', () => {
	it('plain: the tree once; a live log of lines with the time of day; no result line', () => {
		const plain = printerFor('plain', options);
		expect([...plain.picture(snapshot, at)].join('')).toBe(renderPlain(snapshot, {...options, now: at}));
		// The log's first line names the zone of its times, once.
		expect(plain.started(snapshot, at).split('\n').filter(Boolean)).toEqual(['times UTC', expect.stringMatching(/^11:03:22 /), expect.stringMatching(/^11:03:22 /)]);
		expect(plain.transition(transition)).toMatch(/^11:03:22 default\/mysql-instance deploy {2}IN_PROGRESS → COMPLETE\n$/);
		expect(plain.note('connection restored', at)).toBe('11:03:22 connection restored\n');
		expect(printerFor('plain', {...options, timeZone: 'Asia/Tokyo'}).note('connecting', at)).toBe('times Asia/Tokyo\n20:03:22 connecting\n');
		const end = plain.finished(snapshot, result, at);
		expect(end).toContain(renderPlain(snapshot, {...options, now: at}));
		expect(end).not.toContain('backup failed\n');
	});

	it('plain with nothing in scope: one line saying so, in the picture and in the log (not an empty output)', () => {
		const plain = printerFor('plain', options);
		const empty = snapshotOf({objects: []});
		expect([...plain.picture(empty, at)].join('')).toBe('no KUDO Instances or Kanister ActionSets here\n');
		expect(plain.started(empty, at)).toBe('times UTC\n11:03:22 no KUDO Instances or Kanister ActionSets here\n');
		expect(printerFor('plain', options).finished(empty, {exitCode: 0, message: 'nothing to wait for'}, at)).toBe('no KUDO Instances or Kanister ActionSets here\n');
		// Not after a run that never listed (a timeout while connecting) or that failed: stderr says why.
		expect(printerFor('plain', options).finished({...empty, synced: false}, {exitCode: 3, message: 'timed out'}, at)).toBe('');
		expect(printerFor('plain', options).finished(empty, {exitCode: 4, message: 'not found'}, at)).toBe('');
		// With objects, no such line.
		expect([...plain.picture(snapshot, at)].join('')).not.toContain('no KUDO');
		expect(plain.started(snapshot, at)).not.toContain('no KUDO');
	});

	it('json: the document once; NDJSON snapshot, transition and result lines; notes have no line', () => {
		const json = printerFor('json', options);
		expect([...json.picture(snapshot, at)].join('')).toBe(renderJson(snapshot));
		const lines = (text: string) => text.split('\n').filter(Boolean).map(l => JSON.parse(l) as {type: string});
		expect(lines(json.started(snapshot, at)).map(l => l.type)).toEqual(['snapshot']);
		expect(lines(json.transition(transition)).map(l => l.type)).toEqual(['transition']);
		expect(json.note('connection restored', at)).toBe('');
		expect(lines(json.finished(snapshot, result, at))).toEqual([expect.objectContaining({type: 'snapshot'}), expect.objectContaining({type: 'result', exitCode: 1, message: 'backup failed'})]);
	});
});

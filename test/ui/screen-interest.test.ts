import {describe, expect, test} from 'vitest';
import type {PlanObject} from '../../source/model/plan-tree.js';
import {cellWidths} from '../../source/ui/components/object-list.js';
import {changesShow, listInterest, treeInterest} from '../../source/ui/screen-interest.js';
import {createTheme} from '../../source/ui/theme.js';
import {buildTreeList} from '../../source/ui/tree-list.js';
import {mysqlDeploy, nightlyComplete} from '../helpers/ui-objects.js';
import {objectKey} from '../../source/model/plan-tree.js';

const theme = createTheme({color: false, ascii: false});
const widths = (object: PlanObject) => cellWidths(object, theme);

function finished(i: number): PlanObject {
	return {...nightlyComplete(), name: `nightly-${String(i).padStart(3, '0')}`};
}

describe('whether a store change shows', () => {
	const objects = Array.from({length: 100}, (_, i) => finished(i));
	const list = buildTreeList(objects, {expand: new Map(), folds: new Map(), budget: 20});
	const interest = listInterest(list, {start: 0, end: 20}, widths);
	const off = objects[60]!;
	const key = objectKey(off);

	test('an object in the window shows, one below it does not', () => {
		const on = objects[3]!;
		expect(changesShow(interest, [{key: objectKey(on), before: on, after: {...on, resourceVersion: 'x'}}])).toBe(true);
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
		const tree = treeInterest(objectKey(open));
		expect(changesShow(tree, [{key: objectKey(open), before: open, after: {...open}}])).toBe(true);
		expect(changesShow(tree, [{key, before: off, after: {...off, outcome: 'failed', state: 'failed'}}])).toBe(false);
	});
});

import {describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {isFailing, listObjects, progressText} from '../../source/ui/list-rows.js';
import {backupFailed, kafkaRetrying, mysqlDeploy, nightlyComplete} from '../helpers/ui-objects.js';

const objects = [backupFailed(), nightlyComplete(), mysqlDeploy(), kafkaRetrying()];
const names = (list: ReturnType<typeof listObjects>) => list.map(o => o.name);

describe('list rows', () => {
	test('the filter matches namespace/name, case-insensitively', () => {
		expect(names(listObjects(objects, {text: 'KANISTER/', failingOnly: false}))).toEqual(['backup-glptq', 'nightly-x7k2q']);
		expect(names(listObjects(objects, {text: 'sql', failingOnly: false}))).toEqual(['mysql-instance']);
	});

	test('failing only keeps failed and retrying objects', () => {
		expect(objects.filter(o => isFailing(o)).map(o => o.name)).toEqual(['backup-glptq', 'kafka']);
		expect(names(listObjects(objects, {text: '', failingOnly: true}))).toEqual(['backup-glptq', 'kafka']);
	});

	test('targets restrict the list', () => {
		expect(names(listObjects(objects, {text: '', failingOnly: false, targets: [objectKey(objects[3]!)]}))).toEqual(['kafka']);
	});

	test('progress: steps for KUDO, percent for Kanister', () => {
		expect(objects.map(o => progressText(o))).toEqual(['62%', '100%', '1/3 steps', '7/12 steps']);
	});
});

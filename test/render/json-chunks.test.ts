import {expect, it} from 'vitest';
import {objectKey, type PlanEvent} from '../../source/model/plan-tree.js';
import {renderJsonChunks, toJsonDocument} from '../../source/render/json.js';
import {backupDeferFailed, mysqlDeploying} from '../helpers/plan-objects.js';

const event: PlanEvent = {
	uid: 'e1',
	namespace: 'kanister',
	involvedKind: 'ActionSet',
	involvedName: 'backup-glptq',
	type: 'Warning',
	reason: 'ActionSetFailed',
	message: 'line one\nline two "quoted"',
	time: '2026-11-30T11:00:59Z',
	count: 1,
};

it('-o json in chunks, one per object, is exactly the whole document pretty-printed', () => {
	for (const objects of [[], [mysqlDeploying], [backupDeferFailed, mysqlDeploying, backupDeferFailed]]) {
		const snapshot = {objects, events: new Map([[objectKey(backupDeferFailed), [event]]])};
		const chunks = [...renderJsonChunks(snapshot)];
		expect(chunks.join('')).toBe(JSON.stringify(toJsonDocument(snapshot), undefined, 2) + '\n');
		expect(chunks).toHaveLength(objects.length === 0 ? 1 : objects.length + 2);
	}
});

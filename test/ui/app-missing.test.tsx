import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {missingText} from '../../source/ui/components/header-bar.js';
import {renderApp} from '../helpers/render-app.js';
import {cleanupUi} from '../helpers/ui.js';
import {mysqlDeploy, snapshotOf} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

describe('collections RBAC hides, in the header', () => {
	test('the header says what the picture is drawn without', async () => {
		const mysql = mysqlDeploy();
		const snapshot = {...snapshotOf({objects: [mysql]}), missing: [{resource: 'Event' as const, message: 'events not watched: forbidden: user viewer cannot list events in namespace default'}]};
		const app = renderApp({snapshot, targets: [objectKey(mysql)], columns: 140});
		const frame = await app.waitForFrame(f => f.includes('without events'));
		expect(frame.split('\n')[0]).toMatch(/^planwatch · kind-prod · default · UTC · ● live · without events \(forbidden\)/);
	});

	test('missingText lists every hidden collection, or nothing', () => {
		expect(missingText([{resource: 'Event'}, {resource: 'Blueprint'}])).toBe('without events, blueprints (forbidden)');
		expect(missingText([])).toBeUndefined();
		expect(missingText(undefined)).toBeUndefined();
	});
});

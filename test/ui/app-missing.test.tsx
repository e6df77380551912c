import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {limitedText, missingText} from '../../source/ui/components/header-bar.js';
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

describe('kinds past the store\'s cap of objects, in the header', () => {
	test('the header says what was left out, after what RBAC hides', async () => {
		const mysql = mysqlDeploy();
		const snapshot = {
			...snapshotOf({objects: [mysql]}),
			missing: [{resource: 'Blueprint' as const, message: 'blueprints not watched'}],
			limited: [{resource: 'Instance' as const, message: 'more Instances than planwatch holds (20,000): the ones past it are not shown'}],
		};
		const app = renderApp({snapshot, targets: [objectKey(mysql)], columns: 160});
		const frame = await app.waitForFrame(f => f.includes('past the cap'));
		expect(frame.split('\n')[0]).toMatch(/^planwatch · kind-prod · default · UTC · ● live · without blueprints \(forbidden\), instances past the cap not shown/);
	});

	test('limitedText: newer objects not shown, oldest Events dropped, or nothing', () => {
		expect(limitedText([{resource: 'ActionSet'}, {resource: 'Event'}])).toBe('actionsets past the cap not shown, oldest events dropped');
		expect(limitedText([])).toBeUndefined();
		expect(limitedText(undefined)).toBeUndefined();
	});
});

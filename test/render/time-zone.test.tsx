/** One time zone per view: every clock time in the view's zone (a parameter, never process.env.TZ), named once. */
import {afterEach, describe, expect, it} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {parseArgs} from '../../source/cli/parse-args.js';
import {renderObjectPlain} from '../../source/render/plain.js';
import {renderApp} from '../helpers/render-app.js';
import {cleanupUi} from '../helpers/ui.js';
import {mysqlDeploy, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

// mysqlDeploy: deploy updated 2026-11-30T11:02:51Z (active), backup last ran 2026-11-28T09:00:00Z.
const mysql = mysqlDeploy();

describe('time zone', () => {
	it('plain: "updated" and "last run" in the same zone, named once in the object header', () => {
		const tokyo = renderObjectPlain(mysql, undefined, {now: t0, ascii: false, color: false, timeZone: 'Asia/Tokyo'});
		expect(tokyo[0]).toMatch(/ · times Asia\/Tokyo$/);
		expect(tokyo.join('\n')).toContain('updated 20:02:51');
		expect(tokyo.join('\n')).toContain('last run 2026-11-28 18:00:00');
		expect(tokyo.join('\n')).not.toContain('UTC');
		const utc = renderObjectPlain(mysql, undefined, {now: t0, ascii: false, color: false, timeZone: 'UTC'});
		expect(utc[0]).toMatch(/ · times UTC$/);
		expect(utc.join('\n')).toContain('updated 11:02:51');
		expect(utc.join('\n')).toContain('last run 2026-11-28 09:00:00');
	});

	it('tui: the header names the zone; the tree shows its times in it', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets: [objectKey(mysql)], timeZone: 'Asia/Tokyo'});
		const frame = await app.waitForFrame(f => f.includes('last run'));
		expect(frame.split('\n')[0]).toMatch(/^planwatch · kind-prod · default · Asia\/Tokyo · /);
		expect(frame).toContain('updated 20:02:51');
		expect(frame).toContain('last run 2026-11-28 18:00:00');
	});

	it('--utc', () => {
		const result = parseArgs(['-f', 'x', '--utc'], {stdoutIsTTY: false, env: {}});
		expect(result.kind === 'run' && result.options.utc).toBe(true);
		const without = parseArgs(['-f', 'x'], {stdoutIsTTY: false, env: {}});
		expect(without.kind === 'run' && without.options.utc).toBe(false);
	});
});

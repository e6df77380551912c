/**
 * The App over the real path: fixture objects → Store → adapters → views. Guards the contract between the
 * adapters' PlanObjects and what the views draw from them.
 */
import {afterEach, describe, expect, test} from 'vitest';
import {resourceOf} from '../../source/core/kube-object.js';
import {objectKey} from '../../source/model/plan-tree.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {loadFixture} from '../helpers/fixtures.js';
import {cleanupUi, renderUi} from '../helpers/ui.js';

afterEach(cleanupUi);

function renderFixtures(files: readonly string[], options: {readonly columns?: number; readonly rows?: number} = {}) {
	const clock = new FakeClock(Date.parse('2021-06-10T12:40:00Z'));
	const store = new Store(clock);
	for (const file of files) {
		for (const object of loadFixture(file)) {
			const resource = resourceOf(object);
			if (resource) {
				store.apply({type: 'upsert', resource, object});
			}
		}
	}

	store.apply({type: 'synced'});
	store.apply({type: 'connection', state: {status: 'live'}});
	const [first] = store.getSnapshot().objects;
	const app = renderUi(
		<App
			store={store}
			clock={clock}
			wait={new FakeWait({startedAt: clock.now()})}
			header={{context: 'kind', scope: 'default'}}
			targets={[objectKey(first!)]}
			ascii={false}
			color={false}
			timeZone="UTC"
			onQuit={() => {}}
		/>,
		{columns: options.columns ?? 120, rows: options.rows ?? 30},
	);
	return {app, store, clock};
}

const selected = (frame: string) => frame.split('\n').find(line => line.startsWith('›')) ?? '';

describe('real fixtures', () => {
	test('KUDO deploy in progress: the active plan open to its running step, the others closed', async () => {
		const {app} = renderFixtures(['kudo/operatorversion-mysql.yaml', 'kudo/instance-mysql-deploy-in-progress.yaml']);
		const frame = await app.waitForFrame(f => f.includes('cleanup'));
		expect(frame).toContain('Instance default/mysql-instance  ·  mysql-5.7-0.3.0  ·  active plan deploy');
		expect(frame).toMatch(/▾ . deploy +serial +IN_PROGRESS .*updated 09:14:41/);
		expect(frame).toMatch(/▸ ─ backup +serial +NEVER_RUN/);
		expect(frame).toMatch(/▸ ─ restore +serial +NEVER_RUN/);
		expect(selected(frame)).toMatch(/init +IN_PROGRESS/);
	});

	test('KUDO transient error: ↻ retrying, not failed, with the full message under the tree', async () => {
		const {app} = renderFixtures(['kudo/operatorversion-kafka.yaml', 'kudo/instance-kafka-deploy-transient-error.yaml']);
		const frame = await app.waitForFrame(f => f.includes('service'));
		expect(selected(frame)).toMatch(/↻ service +ERROR/);
		expect(frame).not.toContain('✖');
		expect(frame).toMatch(/services "kafka-svc" is\s+forbidden: exceeded quota/);
		expect(frame).toMatch(/▸ ◌ addons +parallel +PENDING/);
	});

	test('KUDO fatal error: the failed plan open at the failed step, older plans closed with their last run', async () => {
		const {app} = renderFixtures(['kudo/operatorversion-mysql.yaml', 'kudo/instance-mysql-restore-fatal-error.yaml', 'kudo/events-mysql-restore-fatal-error.yaml']);
		let frame = await app.waitForFrame(f => f.includes('FATAL_ERROR'));
		expect(selected(frame)).toMatch(/✖ restore +FATAL_ERROR/);
		expect(frame).toMatch(/▸ ✔ backup +serial +COMPLETE +last run 10:02:37$/m);
		await app.press('e');
		frame = await app.waitForFrame(f => f.includes('EVENTS default/mysql-instance'));
		expect(frame).toMatch(/Warning +FailedTerminalStateError/);
	});

	test('KUDO fatal error: a step the failed plan left PENDING is stopped (no spinner, raw status and reason)', async () => {
		const {app} = renderFixtures(['kudo/operatorversion-mysql.yaml', 'kudo/instance-mysql-restore-fatal-error.yaml']);
		const frame = await app.waitForFrame(f => f.includes('cleanup'));
		expect(frame).toMatch(/■ cleanup +PENDING \(stopped\)/);
	});

	test('Kanister: a deferPhase the controller left pending while it runs says why it is shown running', async () => {
		const {app} = renderFixtures(['kanister/blueprint-mysql-defer.yaml', 'kanister/actionset-mysql-backup-defer-running.yaml']);
		const frame = await app.waitForFrame(f => f.includes('deferPhase'));
		expect(frame).toMatch(/⤷ ● recordBackupCompletion · always runs +pending \(running per progress\)/);
	});

	test('KUDO plan triggered but not picked up: says it waits for the controller', async () => {
		const {app} = renderFixtures(['kudo/operatorversion-mysql.yaml', 'kudo/instance-mysql-backup-scheduled-not-picked-up.yaml']);
		const frame = await app.waitForFrame(f => f.includes('QUEUED'));
		expect(selected(frame)).toMatch(/◌ backup +serial +QUEUED .*waiting for the controller to start this plan/);
	});

	test('Kanister: phases failed and deferPhase failed, with phase timings from events', async () => {
		const {app} = renderFixtures([
			'kanister/blueprint-postgres-start-stop-defer.yaml',
			'kanister/actionset-postgres-backup-failed-defer-failed.yaml',
			'kanister/events-postgres-backup-failed-defer-failed.yaml',
		]);
		const frame = await app.waitForFrame(f => f.includes('deferPhase'));
		expect(frame).toContain('ActionSet kanister/backup-glptq  ·  blueprint postgres-bp  ·  failed  ·  60%');
		expect(frame).toMatch(/^✖ backup failed in phase copyFiles; deferPhase failed too/m);
		expect(frame).toMatch(/▾ ✖ backup +statefulset postgres-test\/my-release-postgresql +failed/);
		expect(selected(frame)).toMatch(/✖ copyFiles +failed +0:38 +.*exit status 3: snapshot upload refused/);
		expect(frame).toMatch(/⤷ ✖ deferPhase · always runs +failed +0:02 +pods "postgres-backup-sessionq7w4k" not found/);
	});

	test('hostile fixtures reach the screen inert', async () => {
		for (const file of ['kudo/instance-hostile-escapes.yaml', 'kanister/actionset-hostile-escapes.yaml']) {
			const {app} = renderFixtures([file]);
			await app.waitForFrame(f => f.startsWith('planwatch · kind · default'));
			await app.press('e');
			const raw = app.lastRawFrame();
			expect(raw, file).not.toMatch(/\u001B\]|\u0007|\u009B|[\u202A-\u202E]/);
			expect(raw.replaceAll(/\u001B\[[\d;]*m/g, ''), file).not.toMatch(/\u001B/);
			app.unmount();
		}
	});
});

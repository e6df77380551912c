/** `y` copies the selected node's next command (OSC 52) while it has one, and the tree otherwise. */
import {afterEach, expect, test} from 'vitest';
import {Notifier} from '../../source/cli/notifier.js';
import {createTerminalSignals} from '../../source/cli/terminal-signals.js';
import {createTuiActions} from '../../source/cli/tui-actions.js';
import type {KubeObject} from '../../source/core/kube-object.js';
import {Store} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';
import {kudoInitJob} from '../helpers/kudo-workloads.js';
import {cleanupUi, renderUi} from '../helpers/ui.js';

afterEach(cleanupUi);

const key = 'Instance/default/mysql-instance';
const osc52 = (written: readonly string[]) => written.join('').match(/\u001B\]52;c;([A-Za-z\d+/=]*)\u0007/)?.[1];

const job = kudoInitJob({active: 1});
const pod: KubeObject = {
	apiVersion: 'v1',
	kind: 'Pod',
	metadata: {name: "init-job-x'1", namespace: 'default', labels: {'controller-uid': 'c1'}},
	spec: {containers: [{name: 'init'}]},
	status: {phase: 'Pending', containerStatuses: [{name: 'init', restartCount: 0, state: {waiting: {reason: 'ImagePullBackOff', message: 'Back-off pulling image'}}}]},
};

test('y copies the next command, shell-quoted, while the selected step has one; the tree once it has none', async () => {
	const clock = new FakeClock();
	const store = new Store(clock);
	store.apply({type: 'replace', resource: 'OperatorVersion', objects: loadFixture('kudo/operatorversion-mysql.yaml')});
	store.apply({type: 'upsert', resource: 'Instance', object: loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml')});
	store.apply({type: 'synced'});
	store.apply({type: 'upsert', resource: 'Job', object: job});
	store.apply({type: 'upsert', resource: 'Pod', object: pod});
	const written: string[] = [];
	const signals = createTerminalSignals({write: t => written.push(t), isTTY: true, env: {}});
	const actions = createTuiActions({store, clock, ascii: false, signals, notifier: new Notifier('never', signals, clock.now()), dir: '/nonexistent', timeZone: 'UTC'});
	const app = renderUi(
		<App
			store={store}
			clock={clock}
			wait={new FakeWait()}
			header={{context: 'kind-prod', scope: 'default'}}
			targets={[key]}
			ascii={false}
			color={false}
			timeZone="UTC"
			actions={actions}
			onQuit={() => {}}
		/>,
		{columns: 140, rows: 30},
	);
	await app.waitForFrame(f => f.includes('next'));
	await app.press('y');
	await app.waitForFrame(f => f.includes('sent the next command to the terminal\'s clipboard'));
	expect(Buffer.from(osc52(written)!, 'base64').toString('utf8')).toBe(String.raw`kubectl describe pod -n default 'init-job-x'\''1'` + '\n');
	// The pod is gone and nothing else says the step is stuck: y copies the tree again.
	store.apply({type: 'delete', resource: 'Pod', object: pod});
	store.apply({type: 'upsert', resource: 'Job', object: {...job, status: {succeeded: 1}}});
	await app.waitForFrame(f => f.includes('job init-job succeeded') && !f.includes('   next  '));
	written.length = 0;
	await app.press('y');
	await app.waitForFrame(f => f.includes('sent the tree of default/mysql-instance to the terminal\'s clipboard'));
	expect(Buffer.from(osc52(written)!, 'base64').toString('utf8')).toMatch(/^```\nInstance default\/mysql-instance/);
});

import {describe, expect, test} from 'vitest';
import {cursorIndex, defaultExpanded, focusNodeId, parentsOf, visibleRows} from '../../source/ui/tree-rows.js';
import {backupFailed, kafkaRetrying, mysqlDeploy, nightlyComplete} from '../helpers/ui-objects.js';

const names = (o: ReturnType<typeof mysqlDeploy>, overrides = new Map<string, boolean>()) =>
	visibleRows(o.tree, overrides).map(r => `${'  '.repeat(r.depth)}${r.node.name}`);

describe('default folding', () => {
	test('the active plan opens down to its running step; other plans stay closed, even a failed older run', () => {
		expect(names(mysqlDeploy())).toEqual(['deploy', '  deploy', '    deploy', '    init', '    cleanup', 'backup', 'restore']);
	});

	test('a finished action starts collapsed, a failed one open', () => {
		expect(names(nightlyComplete())).toEqual(['backup']);
		expect(names(backupFailed())).toEqual(['backup', '  createBackupPod', '  waitForPodReady', '  copyFiles', '  stopBackup', '  deferPhase']);
	});

	test('a queued (pending) active plan shows its phases and their steps; a pending phase of a running plan stays closed', () => {
		const plan = {...mysqlDeploy().tree[0]!, state: 'pending' as const, status: 'QUEUED'};
		const phase = {...plan.children[0]!, state: 'pending' as const, children: plan.children[0]!.children.map(s => ({...s, state: 'pending' as const}))};
		const queued = {...plan, children: [phase]};
		expect(defaultExpanded(queued)).toBe(true);
		expect(defaultExpanded(phase, queued)).toBe(true);
		expect(visibleRows([queued], new Map()).map(r => r.node.name)).toEqual(['deploy', 'deploy', 'deploy', 'init', 'cleanup']);
		// KUDO leaves the phases of a plan it has not started at NEVER_RUN.
		expect(defaultExpanded({...phase, state: 'inactive', status: 'NEVER_RUN'}, queued)).toBe(true);
		expect(defaultExpanded(phase, {...plan, state: 'running'})).toBe(false);
		expect(defaultExpanded(phase)).toBe(false);
	});

	test('overrides win over the default', () => {
		const o = mysqlDeploy();
		expect(names(o, new Map([['plan:deploy', false], ['plan:restore', true]]))).toEqual(['deploy', 'backup', 'restore', '  restore']);
	});
});

describe('cursor', () => {
	test('rests on the running step, the retrying one, or the failed one', () => {
		expect(focusNodeId(mysqlDeploy().tree)).toBe('plan:deploy/phase:deploy/step:init');
		expect(focusNodeId(kafkaRetrying().tree)).toBe('plan:deploy/phase:deploy-kafka/step:service');
		expect(focusNodeId(backupFailed().tree)).toBe('action:0:backup/phase:copyFiles');
	});

	test('a cursor inside a folded parent lands on the nearest visible ancestor', () => {
		const o = mysqlDeploy();
		const rows = visibleRows(o.tree, new Map([['plan:deploy/phase:deploy', false]]));
		const i = cursorIndex(rows, parentsOf(o.tree), 'plan:deploy/phase:deploy/step:cleanup', o.tree);
		expect(rows[i]?.node.id).toBe('plan:deploy/phase:deploy');
	});

	test('an unknown cursor falls back to the focus node', () => {
		const o = mysqlDeploy();
		const rows = visibleRows(o.tree, new Map());
		expect(rows[cursorIndex(rows, parentsOf(o.tree), 'gone', o.tree)]?.node.name).toBe('init');
	});
});

import {definitions, scenario} from '../compose.js';
import {uuidFor} from '../ids.js';
import {fatalError, KudoInstanceTimeline, operatorVersionObject} from '../kudo-builders.js';
import {mysqlPackage} from '../kudo-packages.js';
import type {Scenario} from '../scenario.js';

const name = 'mysql-orders';
const hour = 3_600_000;

export const kudoFatal: Scenario = scenario(
	{
		name: 'kudo-fatal',
		title: 'KUDO mysql restore ends in FATAL_ERROR (restore Job failed terminally)',
		description:
			'An installed mysql instance gets RESTORE_FILE changed, which triggers the restore plan. The restore Job '
			+ 'reaches its backoff limit: step, phase and plan become FATAL_ERROR, only the step carries the message, '
			+ 'spec.planExecution is cleared and a FailedTerminalStateError event is recorded.',
	},
	definitions(operatorVersionObject(mysqlPackage)),
	new KudoInstanceTimeline({name, pkg: mysqlPackage, parameters: {BACKUP_FILE: 'backup-orders.sql'}})
		.existing(0, {
			deploy: {uid: uuidFor(`${name}/deploy`), endedAt: -26 * hour},
			backup: {uid: uuidFor(`${name}/backup`), endedAt: -2 * hour},
		})
		.trigger(2000, 'restore', uuidFor(`${name}/restore`), {RESTORE_FILE: 'backup-orders-previous.sql'})
		.run([
			{at: 3000, steps: {'restore.restore': 'IN_PROGRESS'}},
			{
				at: 17_000,
				steps: {
					'restore.restore': {
						status: 'FATAL_ERROR',
						message: fatalError(name, 'restore.restore.restore.restore', ns =>
							`object ${ns}/restore-job is NOT healthy: fatal error: HealthUtil: job "restore-job" has failed terminally: ` +
							'Job has reached the specified backoff limit'),
					},
				},
			},
		])
		.steps,
);

import {definitions, scenario} from '../compose.js';
import {uuidFor} from '../ids.js';
import {KudoInstanceTimeline, operatorVersionObject} from '../kudo-builders.js';
import {mysqlPackage} from '../kudo-packages.js';
import type {Scenario} from '../scenario.js';

const name = 'mysql-billing';
const hour = 3_600_000;

export const kudoUidRace: Scenario = scenario(
	{
		name: 'kudo-uid-race',
		title: 'KUDO backup triggered while the previous backup still shows COMPLETE (uid race)',
		description:
			'A backup COMPLETEd an hour ago. kubectl kudo plan trigger --name backup sets spec.planExecution with a new '
			+ 'uid; for five seconds the status still shows the previous run (old uid, COMPLETE) until the controller '
			+ 'picks the new run up, resets the plan and runs it to COMPLETE.',
	},
	definitions(operatorVersionObject(mysqlPackage)),
	new KudoInstanceTimeline({name, pkg: mysqlPackage, parameters: {BACKUP_FILE: 'backup-billing.sql'}})
		.existing(0, {
			deploy: {uid: uuidFor(`${name}/deploy`), endedAt: -50 * hour},
			backup: {uid: uuidFor(`${name}/backup-1`), endedAt: -1 * hour},
		})
		.trigger(3000, 'backup', uuidFor(`${name}/backup-2`))
		.run([
			{at: 8000, steps: {'backup.pv': 'COMPLETE', 'backup.backup': 'IN_PROGRESS'}},
			{at: 19_000, steps: {'backup.backup': 'COMPLETE', 'backup.cleanup': 'IN_PROGRESS'}},
			{at: 22_000, steps: {'backup.cleanup': 'COMPLETE'}},
		])
		.steps,
);

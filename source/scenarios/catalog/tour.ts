import {combine} from '../compose.js';
import type {Scenario} from '../scenario.js';
import {mysqlBackup} from './mysql-backup.js';
import {mysqlDeploy} from './mysql-deploy.js';
import {postgresRestoreFailed} from './postgres-restore-failed.js';
import {zookeeperDeploy} from './zookeeper-deploy.js';

export const tour: Scenario = combine(
	{
		name: 'tour',
		title: 'The default demo: two KUDO installs and two Kanister ActionSets, staggered',
		description:
			'A mysql install whose init step hits a transient ERROR and recovers; a Kanister mysql backup whose deferPhase '
			+ 'runs after the dump; a zookeeper install with a parallel phase; a postgres restore that fails while its '
			+ 'deferPhase still brings the database back up. Starts within ten seconds, done in about forty.',
	},
	[
		{scenario: mysqlDeploy, offsetMs: 0},
		{scenario: mysqlBackup, offsetMs: 2000},
		{scenario: zookeeperDeploy, offsetMs: 6000},
		{scenario: postgresRestoreFailed, offsetMs: 10_000},
	],
);

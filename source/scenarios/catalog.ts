/** Every scenario, by name. `tour` is the default demo. */
import {actionsetStartFailed} from './catalog/actionset-start-failed.js';
import {backupDeferFailed} from './catalog/backup-defer-failed.js';
import {kudoFatal} from './catalog/kudo-fatal.js';
import {kudoUidRace} from './catalog/kudo-uid-race.js';
import {many} from './catalog/many.js';
import {mysqlBackup} from './catalog/mysql-backup.js';
import {mysqlDeploy} from './catalog/mysql-deploy.js';
import {postgresRestoreFailed} from './catalog/postgres-restore-failed.js';
import {restoreDeferBothFailed} from './catalog/restore-defer-both-failed.js';
import {tour} from './catalog/tour.js';
import {whyStuck} from './catalog/why-stuck.js';
import {zookeeperDeploy} from './catalog/zookeeper-deploy.js';
import type {Scenario} from './scenario.js';

/** In `--help` order: the default first, then KUDO, Kanister, many. */
export const scenarios: readonly Scenario[] = [
	tour,
	mysqlDeploy,
	zookeeperDeploy,
	kudoFatal,
	kudoUidRace,
	mysqlBackup,
	backupDeferFailed,
	postgresRestoreFailed,
	restoreDeferBothFailed,
	actionsetStartFailed,
	whyStuck,
	many,
];

export const defaultScenarioName = 'tour';

export function findScenario(name: string): Scenario | undefined {
	return scenarios.find(s => s.name === name);
}

export const scenarioNames: readonly string[] = scenarios.map(s => s.name);

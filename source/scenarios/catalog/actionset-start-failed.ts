import {definitions, scenario} from '../compose.js';
import {actionSetTimeline, blueprintObject, objectRef} from '../kanister-builders.js';
import {mysqlBlueprint} from '../kanister-blueprints.js';
import type {Scenario} from '../scenario.js';

export const actionsetStartFailed: Scenario = scenario(
	{
		name: 'actionset-start-failed',
		title: 'Kanister backup that fails to start: its deferPhase stays pending forever',
		description:
			'An ActionSet names a StatefulSet that does not exist (a typo). The controller marks it running, cannot '
			+ 'build the template parameters and fails the launch: state failed, the first phase failed, and the '
			+ 'deferPhase stays pending although it will never run.',
	},
	definitions(blueprintObject(mysqlBlueprint)),
	actionSetTimeline(
		{
			name: 'backup-mx7pd',
			blueprint: mysqlBlueprint,
			action: 'backup',
			object: objectRef('statefulset', 'mysql-test', 'mysql-relase'),
			profile: objectRef('', 'mysql-test', 's3-profile-drnw9'),
		},
		{at: 1500, phases: [], launchFailure: 'Failed to get StatefulSet: statefulsets.apps "mysql-relase" not found'},
	),
);

/** The postgres workload the Kanister postgres scenarios back up and restore (postgres-bp). */
import {objectRef, type ActionSetDef} from '../kanister-builders.js';
import {postgresBlueprint} from '../kanister-blueprints.js';

export const postgresObject = objectRef('statefulset', 'postgres-test', 'my-release-postgresql');
export const postgresProfile = objectRef('', 'postgres-test', 's3-profile-7d6wt');

/** Input artifacts of a restore: what the parent backup rendered (`kanctl create actionset --from`). */
export const postgresBackupArtifacts = {
	cloudObject: {
		keyValue: {
			backupArtifactLocation: 's3-bucket/path/artifactPrefix',
			backupID: '6b9c2f1e',
			backupTag: 't9xq2m7kpl',
			pvc: 'data-my-release-postgresql-0',
		},
	},
};

export function postgresRestore(name: string): ActionSetDef {
	return {
		name,
		blueprint: postgresBlueprint,
		action: 'restore',
		object: postgresObject,
		profile: postgresProfile,
		artifacts: postgresBackupArtifacts,
	};
}

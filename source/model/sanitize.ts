// Placeholder signatures; implemented by the model work.
export const maxFieldLength = 2000;
export function sanitizeText(value: unknown, max = maxFieldLength): string {
	return String(value ?? '').slice(0, max);
}
export function sanitizeLine(value: unknown, max = maxFieldLength): string {
	return sanitizeText(value, max);
}

export const NODE_RANGE: string;
export function supportsNode(range: string, version: string): boolean;

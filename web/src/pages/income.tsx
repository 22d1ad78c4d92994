export function IncomePage() { return null; }

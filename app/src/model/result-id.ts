/** A result id: letters, digits, dot, dash, underscore (a UUID for results made here). */
export const RESULT_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

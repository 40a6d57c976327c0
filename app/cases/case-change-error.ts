/** A change to a case refused, with why in Arabic: the routes answer it as a 409 (a subclass, 403). */
export class CaseChangeError extends Error {}

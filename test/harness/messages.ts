/**
 * The expectations many tests pin, written once: the `expected ...` part of the library's messages
 * that recur across files (a message names the path, the field and the value, then what is
 * allowed; the last part is what repeats). A test that asserts one of these messages splices the
 * constant into the message it expects, so a change of wording is one edit here, and the tests
 * still pin the exact text (the constants are literals, never read from src/).
 */

/** The text cdk8s puts before the list of validation errors (one finding per line after it). */
export const REPORT = 'Validation failed with the following errors:\n';

/** An environment variable the training operator injects, set by the user (training-operator/injected-env). */
export const INJECTED_ENV = 'expected a variable the operator does not set itself; it injects this one and a user value would break the job';

/** A name that must be a DNS-1035 label (service and port names, most object names of the operators). */
export const DNS_1035_LABEL = 'expected a DNS-1035 label: at most 63 lower-case letters, digits or "-", starting with a letter and ending with a letter or digit';

/** A name that must be a DNS-1123 label (container and volume names). */
export const DNS_1123_LABEL = 'expected a DNS-1123 label: at most 63 lower-case letters, digits or "-", starting and ending with a letter or digit';

/** A label (or annotation) key. */
export const LABEL_KEY = 'expected a label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';

/** A label value. */
export const LABEL_VALUE = 'expected a label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';

/** A port number. */
export const PORT_NUMBER = 'expected a whole number from 1 to 65535';

/** A count that may be zero (workers, parameter servers ...). */
export const WHOLE_NUMBER_0_OR_MORE = 'expected a whole number of 0 or more';

/** A count of at least one. */
export const WHOLE_NUMBER_1_OR_MORE = 'expected a whole number of 1 or more';

/** A field the pinned CRD does not declare (library/schema; a "did you mean" may follow). */
export const PINNED_CRD_FIELDS = 'expected only fields the pinned CRD declares';

/** A WorkspaceKind mount at the home volume's path. */
export const HOME_MOUNT_TAKEN = 'expected a path no other mount uses; the home volume is mounted there';

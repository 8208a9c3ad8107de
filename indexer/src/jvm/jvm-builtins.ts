// Names every Java or Kotlin file sees without an import: java.lang's public types, Kotlin's
// default imports (kotlin.*, kotlin.collections.*, …), the primitive types and how Kotlin's built-in
// types map to Java's. Resolution needs them to tell an implicitly imported JDK or stdlib name
// from one it cannot place. Java 17 and Kotlin 2.x public API.

const JAVA_LANG = `Appendable AutoCloseable CharSequence Cloneable Comparable Iterable Readable Runnable
Boolean Byte Character Class ClassLoader ClassValue Double Enum Float InheritableThreadLocal Integer Long Math Module
ModuleLayer Number Object Package Process ProcessBuilder ProcessHandle Record Runtime RuntimePermission SecurityManager
Short StackTraceElement StackWalker StrictMath String StringBuffer StringBuilder System Thread ThreadGroup ThreadLocal
Throwable Void ArithmeticException ArrayIndexOutOfBoundsException ArrayStoreException ClassCastException
ClassNotFoundException CloneNotSupportedException EnumConstantNotPresentException Exception IllegalAccessException
IllegalArgumentException IllegalCallerException IllegalMonitorStateException IllegalStateException
IllegalThreadStateException IndexOutOfBoundsException InstantiationException InterruptedException
LayerInstantiationException NegativeArraySizeException NoSuchFieldException NoSuchMethodException NullPointerException
NumberFormatException ReflectiveOperationException RuntimeException SecurityException StringIndexOutOfBoundsException
TypeNotPresentException UnsupportedOperationException AbstractMethodError AssertionError BootstrapMethodError
ClassCircularityError ClassFormatError Error ExceptionInInitializerError IllegalAccessError IncompatibleClassChangeError
InstantiationError InternalError LinkageError NoClassDefFoundError NoSuchFieldError NoSuchMethodError OutOfMemoryError
StackOverflowError ThreadDeath UnknownError UnsatisfiedLinkError UnsupportedClassVersionError VerifyError
VirtualMachineError Deprecated FunctionalInterface Override SafeVarargs SuppressWarnings`;

/** Types of Kotlin's default imports, by the package that declares them. */
const KOTLIN_DEFAULT_TYPES: Record<string, string> = {
  kotlin: `Any Nothing Unit Boolean Byte Short Int Long Float Double Char String CharSequence Number Comparable Array
BooleanArray ByteArray CharArray ShortArray IntArray LongArray FloatArray DoubleArray UByte UShort UInt ULong Enum
Annotation Throwable Exception RuntimeException Error IllegalArgumentException IllegalStateException
IndexOutOfBoundsException UnsupportedOperationException NullPointerException ClassCastException ArithmeticException
NumberFormatException ConcurrentModificationException NoSuchElementException AssertionError Pair Triple Lazy Result
Function ${Array.from({ length: 23 }, (_, n) => `Function${n}`).join(' ')} Deprecated Suppress DslMarker PublishedApi ReplaceWith Comparator OptIn RequiresOptIn UninitializedPropertyAccessException
KotlinNullPointerException NotImplementedError`,
  'kotlin.collections': `List MutableList ArrayList Set MutableSet HashSet LinkedHashSet Map MutableMap HashMap LinkedHashMap
Collection MutableCollection Iterable MutableIterable Iterator MutableIterator ListIterator MutableListIterator
AbstractList AbstractMutableList AbstractSet AbstractMap RandomAccess ArrayDeque Grouping IndexedValue`,
  'kotlin.sequences': 'Sequence',
  'kotlin.ranges': 'IntRange LongRange CharRange ClosedRange IntProgression LongProgression OpenEndRange',
  'kotlin.text': 'StringBuilder Regex MatchResult Charsets Appendable',
  'kotlin.annotation': 'Target Retention MustBeDocumented Repeatable AnnotationTarget AnnotationRetention',
  'kotlin.jvm': 'JvmStatic JvmField JvmOverloads JvmName JvmInline JvmRecord Throws Volatile Synchronized Transient Strictfp JvmSuppressWildcards JvmWildcard',
};

/** Top-level functions of Kotlin's default imports (callable without a receiver). */
const KOTLIN_DEFAULT_FUNCTIONS: Record<string, string> = {
  kotlin: `require requireNotNull check checkNotNull error TODO run let apply also with takeIf takeUnless repeat lazy lazyOf
to runCatching assert synchronized arrayOf arrayOfNulls emptyArray intArrayOf longArrayOf doubleArrayOf floatArrayOf
booleanArrayOf charArrayOf byteArrayOf shortArrayOf enumValues enumValueOf suspend`,
  'kotlin.io': 'println print readLine readln readlnOrNull',
  'kotlin.collections': `listOf mutableListOf arrayListOf emptyList listOfNotNull setOf mutableSetOf hashSetOf linkedSetOf
emptySet mapOf mutableMapOf hashMapOf linkedMapOf emptyMap buildList buildSet buildMap`,
  'kotlin.sequences': 'sequenceOf emptySequence generateSequence sequence',
  'kotlin.comparisons': 'compareBy compareByDescending maxOf minOf naturalOrder reverseOrder',
  'kotlin.text': 'buildString',
};

/**
 * Top-level public types of the JDK packages code most often imports with a wildcard (Java 17).
 * With two wildcard imports (`java.util.*`, `java.util.concurrent.*`) a name could come from
 * either; knowing which of them declares `Map` or `ConcurrentHashMap` places it. A package not
 * listed here is never ruled out, so a gap in these lists costs a reference, never a wrong one.
 */
const JDK_PACKAGE_TYPES: Record<string, string> = {
  'java.util': `AbstractCollection AbstractList AbstractMap AbstractQueue AbstractSequentialList AbstractSet ArrayDeque
ArrayList Arrays Base64 BitSet Calendar Collection Collections Comparator ConcurrentModificationException Currency Date
Deque Dictionary DoubleSummaryStatistics DuplicateFormatFlagsException EmptyStackException EnumMap EnumSet Enumeration
EventListener EventListenerProxy EventObject FormatFlagsConversionMismatchException Formattable FormattableFlags Formatter
FormatterClosedException GregorianCalendar HashMap HashSet Hashtable HexFormat IdentityHashMap
IllegalFormatCodePointException IllegalFormatConversionException IllegalFormatException IllegalFormatFlagsException
IllegalFormatPrecisionException IllegalFormatWidthException IllformedLocaleException InputMismatchException
IntSummaryStatistics InvalidPropertiesFormatException Iterator LinkedHashMap LinkedHashSet LinkedList List ListIterator
ListResourceBundle Locale LongSummaryStatistics Map MissingFormatArgumentException MissingFormatWidthException
MissingResourceException NavigableMap NavigableSet NoSuchElementException Objects Observable Observer Optional
OptionalDouble OptionalInt OptionalLong PrimitiveIterator PriorityQueue Properties PropertyPermission
PropertyResourceBundle Queue Random RandomAccess ResourceBundle Scanner ServiceConfigurationError ServiceLoader
SimpleTimeZone SortedMap SortedSet Spliterator Spliterators SplittableRandom Stack StringJoiner StringTokenizer Timer
TimerTask TimeZone TooManyListenersException TreeMap TreeSet UnknownFormatConversionException
UnknownFormatFlagsException UUID Vector WeakHashMap`,
  'java.util.concurrent': `AbstractExecutorService ArrayBlockingQueue BlockingDeque BlockingQueue BrokenBarrierException
Callable CancellationException CompletableFuture CompletionException CompletionService CompletionStage ConcurrentHashMap
ConcurrentLinkedDeque ConcurrentLinkedQueue ConcurrentMap ConcurrentNavigableMap ConcurrentSkipListMap
ConcurrentSkipListSet CopyOnWriteArrayList CopyOnWriteArraySet CountDownLatch CountedCompleter CyclicBarrier Delayed
DelayQueue Exchanger ExecutionException Executor ExecutorCompletionService Executors ExecutorService Flow ForkJoinPool
ForkJoinTask ForkJoinWorkerThread Future FutureTask LinkedBlockingDeque LinkedBlockingQueue LinkedTransferQueue Phaser
PriorityBlockingQueue RecursiveAction RecursiveTask RejectedExecutionException RejectedExecutionHandler RunnableFuture
RunnableScheduledFuture ScheduledExecutorService ScheduledFuture ScheduledThreadPoolExecutor Semaphore
SubmissionPublisher SynchronousQueue ThreadFactory ThreadLocalRandom ThreadPoolExecutor TimeoutException TimeUnit
TransferQueue`,
  'java.util.concurrent.atomic': `AtomicBoolean AtomicInteger AtomicIntegerArray AtomicIntegerFieldUpdater AtomicLong
AtomicLongArray AtomicLongFieldUpdater AtomicMarkableReference AtomicReference AtomicReferenceArray
AtomicReferenceFieldUpdater AtomicStampedReference DoubleAccumulator DoubleAdder LongAccumulator LongAdder`,
  'java.util.concurrent.locks': `AbstractOwnableSynchronizer AbstractQueuedLongSynchronizer AbstractQueuedSynchronizer
Condition Lock LockSupport ReadWriteLock ReentrantLock ReentrantReadWriteLock StampedLock`,
  'java.util.function': `BiConsumer BiFunction BinaryOperator BiPredicate BooleanSupplier Consumer DoubleBinaryOperator
DoubleConsumer DoubleFunction DoublePredicate DoubleSupplier DoubleToIntFunction DoubleToLongFunction DoubleUnaryOperator
Function IntBinaryOperator IntConsumer IntFunction IntPredicate IntSupplier IntToDoubleFunction IntToLongFunction
IntUnaryOperator LongBinaryOperator LongConsumer LongFunction LongPredicate LongSupplier LongToDoubleFunction
LongToIntFunction LongUnaryOperator ObjDoubleConsumer ObjIntConsumer ObjLongConsumer Predicate Supplier
ToDoubleBiFunction ToDoubleFunction ToIntBiFunction ToIntFunction ToLongBiFunction ToLongFunction UnaryOperator`,
  'java.util.stream': 'BaseStream Collector Collectors DoubleStream IntStream LongStream Stream StreamSupport',
  'java.util.regex': 'MatchResult Matcher Pattern PatternSyntaxException',
  'java.io': `BufferedInputStream BufferedOutputStream BufferedReader BufferedWriter ByteArrayInputStream
ByteArrayOutputStream CharArrayReader CharArrayWriter CharConversionException Closeable Console DataInput
DataInputStream DataOutput DataOutputStream EOFException Externalizable File FileDescriptor FileFilter FileInputStream
FilenameFilter FileNotFoundException FileOutputStream FilePermission FileReader FileWriter FilterInputStream
FilterOutputStream FilterReader FilterWriter Flushable InputStream InputStreamReader InterruptedIOException
InvalidClassException InvalidObjectException IOError IOException LineNumberReader NotActiveException
NotSerializableException ObjectInput ObjectInputFilter ObjectInputStream ObjectInputValidation ObjectOutput
ObjectOutputStream ObjectStreamClass ObjectStreamConstants ObjectStreamException ObjectStreamField
OptionalDataException OutputStream OutputStreamWriter PipedInputStream PipedOutputStream PipedReader PipedWriter
PrintStream PrintWriter PushbackInputStream PushbackReader RandomAccessFile Reader SequenceInputStream Serial
Serializable SerializablePermission StreamCorruptedException StreamTokenizer StringReader StringWriter
SyncFailedException UncheckedIOException UnsupportedEncodingException UTFDataFormatException WriteAbortedException
Writer`,
  'java.nio.file': `AccessDeniedException AccessMode AtomicMoveNotSupportedException ClosedDirectoryStreamException
ClosedFileSystemException ClosedWatchServiceException CopyOption DirectoryIteratorException DirectoryNotEmptyException
DirectoryStream FileAlreadyExistsException Files FileStore FileSystem FileSystemAlreadyExistsException
FileSystemException FileSystemLoopException FileSystemNotFoundException FileSystems FileVisitOption FileVisitor
FileVisitResult InvalidPathException LinkOption LinkPermission NoSuchFileException NotDirectoryException
NotLinkException OpenOption Path PathMatcher Paths ProviderMismatchException ProviderNotFoundException
ReadOnlyFileSystemException SecureDirectoryStream SimpleFileVisitor StandardCopyOption StandardOpenOption
StandardWatchEventKinds Watchable WatchEvent WatchKey WatchService`,
  'java.time': `Clock DateTimeException DayOfWeek Duration Instant InstantSource LocalDate LocalDateTime LocalTime Month
MonthDay OffsetDateTime OffsetTime Period Year YearMonth ZonedDateTime ZoneId ZoneOffset`,
};
const JDK_PACKAGES = new Map(Object.entries(JDK_PACKAGE_TYPES).map(([pkg, names]) => [pkg, new Set(names.split(/\s+/).filter(Boolean))]));

/** Whether a listed JDK package declares a top-level type of this name; undefined for a package not listed. */
export function jdkPackageDeclares(pkg: string, name: string): boolean | undefined {
  return JDK_PACKAGES.get(pkg)?.has(name);
}

/** Extension functions of the standard library that apply to any receiver. */
const KOTLIN_SCOPE_FUNCTIONS = new Set(['let', 'run', 'apply', 'also', 'takeIf', 'takeUnless', 'to']);

function table(groups: Record<string, string>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [pkg, names] of Object.entries(groups)) for (const name of names.split(/\s+/)) if (name) map.set(name, `${pkg}.${name}`);
  return map;
}

const JAVA_LANG_TYPES = table({ 'java.lang': JAVA_LANG });
const KOTLIN_TYPES = table(KOTLIN_DEFAULT_TYPES);
const KOTLIN_FUNCTIONS = table(KOTLIN_DEFAULT_FUNCTIONS);

export const JAVA_PRIMITIVES: ReadonlySet<string> = new Set(['boolean', 'byte', 'short', 'int', 'long', 'char', 'float', 'double', 'void']);

/** Boxed forms, so a literal `1` is compatible with an `Integer` or a Kotlin `Int` parameter. */
const BOXES: Record<string, string[]> = {
  boolean: ['java.lang.Boolean', 'kotlin.Boolean'], byte: ['java.lang.Byte', 'kotlin.Byte'], short: ['java.lang.Short', 'kotlin.Short'],
  int: ['java.lang.Integer', 'kotlin.Int'], long: ['java.lang.Long', 'kotlin.Long'], char: ['java.lang.Character', 'kotlin.Char'],
  float: ['java.lang.Float', 'kotlin.Float'], double: ['java.lang.Double', 'kotlin.Double'],
};

/** Kotlin built-ins that are Java types at run time (and so the same type to an overload). */
const KOTLIN_TO_JAVA: Record<string, string> = {
  'kotlin.String': 'java.lang.String', 'kotlin.Any': 'java.lang.Object', 'kotlin.CharSequence': 'java.lang.CharSequence',
  'kotlin.Number': 'java.lang.Number', 'kotlin.Comparable': 'java.lang.Comparable', 'kotlin.Throwable': 'java.lang.Throwable',
  'kotlin.Exception': 'java.lang.Exception', 'kotlin.RuntimeException': 'java.lang.RuntimeException', 'kotlin.Enum': 'java.lang.Enum',
  'kotlin.collections.List': 'java.util.List', 'kotlin.collections.MutableList': 'java.util.List',
  'kotlin.collections.Map': 'java.util.Map', 'kotlin.collections.MutableMap': 'java.util.Map',
  'kotlin.collections.Set': 'java.util.Set', 'kotlin.collections.MutableSet': 'java.util.Set',
  'kotlin.collections.Collection': 'java.util.Collection', 'kotlin.collections.Iterable': 'java.lang.Iterable',
  'kotlin.collections.MutableCollection': 'java.util.Collection', 'kotlin.collections.MutableIterable': 'java.lang.Iterable',
  'kotlin.collections.Iterator': 'java.util.Iterator', 'kotlin.collections.MutableIterator': 'java.util.Iterator',
  'kotlin.collections.ListIterator': 'java.util.ListIterator', 'kotlin.collections.MutableListIterator': 'java.util.ListIterator',
  'kotlin.collections.Map.Entry': 'java.util.Map.Entry', 'kotlin.collections.MutableMap.MutableEntry': 'java.util.Map.Entry',
  'kotlin.Annotation': 'java.lang.annotation.Annotation', 'kotlin.Cloneable': 'java.lang.Cloneable', 'kotlin.Error': 'java.lang.Error',
  'kotlin.IllegalArgumentException': 'java.lang.IllegalArgumentException', 'kotlin.IllegalStateException': 'java.lang.IllegalStateException',
  'kotlin.collections.ArrayList': 'java.util.ArrayList', 'kotlin.collections.HashMap': 'java.util.HashMap', 'kotlin.collections.HashSet': 'java.util.HashSet',
  'kotlin.collections.LinkedHashMap': 'java.util.LinkedHashMap', 'kotlin.collections.LinkedHashSet': 'java.util.LinkedHashSet',
  'kotlin.text.StringBuilder': 'java.lang.StringBuilder', 'kotlin.text.Appendable': 'java.lang.Appendable', 'kotlin.Comparator': 'java.util.Comparator',
};

/** Element types of iteration over a built-in collection type: the type argument that is the element. */
const ITERABLES = new Set([
  'java.lang.Iterable', 'java.util.Collection', 'java.util.List', 'java.util.Set', 'java.util.ArrayList', 'java.util.LinkedList',
  'java.util.HashSet', 'java.util.LinkedHashSet', 'java.util.TreeSet', 'java.util.SortedSet', 'java.util.Deque', 'java.util.Queue',
  'java.util.ArrayDeque', 'kotlin.Array', 'kotlin.collections.List', 'kotlin.collections.MutableList', 'kotlin.collections.Set',
  'kotlin.collections.MutableSet', 'kotlin.collections.Collection', 'kotlin.collections.Iterable', 'kotlin.collections.ArrayList',
  'kotlin.sequences.Sequence', 'kotlin.collections.MutableCollection', 'kotlin.collections.HashSet', 'kotlin.collections.LinkedHashSet',
]);

export function javaLangType(name: string): string | undefined {
  return JAVA_LANG_TYPES.get(name);
}

export function kotlinDefaultType(name: string): string | undefined {
  return KOTLIN_TYPES.get(name) ?? JAVA_LANG_TYPES.get(name);
}

export function kotlinDefaultFunction(name: string): string | undefined {
  return KOTLIN_FUNCTIONS.get(name);
}

export function isKotlinScopeFunction(name: string): boolean {
  return KOTLIN_SCOPE_FUNCTIONS.has(name);
}

/** The name a type has at run time, so Kotlin and Java spellings of one type compare equal. */
export function runtimeName(fqn: string): string {
  return KOTLIN_TO_JAVA[fqn] ?? (/^kotlin\.Function\d+$/.test(fqn) ? `kotlin.jvm.functions.${fqn.slice('kotlin.'.length)}` : fqn);
}

/** Kotlin's primitive arrays by the Java primitive of their elements (`IntArray` is `int[]`). */
const PRIMITIVE_ARRAYS: Record<string, string> = {
  'kotlin.BooleanArray': 'boolean', 'kotlin.ByteArray': 'byte', 'kotlin.ShortArray': 'short', 'kotlin.IntArray': 'int',
  'kotlin.LongArray': 'long', 'kotlin.CharArray': 'char', 'kotlin.FloatArray': 'float', 'kotlin.DoubleArray': 'double',
};

export function primitiveArrayElement(fqn: string): string | undefined {
  return PRIMITIVE_ARRAYS[fqn];
}

export function boxesOf(primitive: string): readonly string[] {
  return BOXES[primitive] ?? [];
}

/** Kotlin's primitive-like built-ins by the Java primitive they compile to. */
export function primitiveOfKotlin(fqn: string): string | undefined {
  for (const [primitive, boxes] of Object.entries(BOXES)) if (boxes[1] === fqn) return primitive;
  return undefined;
}

/** Java's boxes by the primitive they hold (`java.lang.Integer` → int). */
export function primitiveOfBox(fqn: string): string | undefined {
  for (const [primitive, boxes] of Object.entries(BOXES)) if (boxes[0] === fqn) return primitive;
  return undefined;
}

export function isIterable(fqn: string): boolean {
  return ITERABLES.has(fqn);
}

/** Java's widening primitive conversions (JLS 5.1.2). */
const WIDENING: Record<string, string[]> = {
  byte: ['short', 'int', 'long', 'float', 'double'], short: ['int', 'long', 'float', 'double'], char: ['int', 'long', 'float', 'double'],
  int: ['long', 'float', 'double'], long: ['float', 'double'], float: ['double'],
};

export function widens(from: string, to: string): boolean {
  return WIDENING[from]?.includes(to) ?? false;
}

/** First segments of package names common enough to read an undeclared qualifier as a package. */
const PACKAGE_ROOTS = new Set(['java', 'javax', 'jdk', 'sun', 'com', 'org', 'net', 'io', 'kotlin', 'kotlinx', 'android', 'androidx', 'dalvik', 'junit']);

export function isPackageRoot(name: string): boolean {
  return PACKAGE_ROOTS.has(name);
}

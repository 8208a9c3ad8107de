// Kotlin resolution, and Java and Kotlin calling each other, case by case: real source files with
// caret assertions under the code (see caret-cases.ts). Known gaps are parked with `it.skip`.
import { describe, expect, it } from 'vitest';
import { caretFailures } from './caret-cases.ts';

async function expectCase(source: string): Promise<void> {
  expect(await caretFailures(source, 'src/main/kotlin/Case.kt')).toEqual([]);
}

describe('Kotlin: packages, imports, top-level declarations', () => {
  it('resolves imports, aliases and top-level functions and properties', () => expectCase(`
// --- src/main/kotlin/com/example/util/Text.kt
package com.example.util

const val SEPARATOR = ","

fun join(parts: List<String>): String = parts.joinToString(SEPARATOR)
//  ^ definition.function; qname: com.example.util.join(List)
//                                                         ^ defined: 3

class Clock {
    fun now(): Long = 0
}
// --- src/main/kotlin/com/example/app/App.kt
package com.example.app

import com.example.util.Clock as Time
//                      ^ reference.import; defined: src/main/kotlin/com/example/util/Text.kt:9
import com.example.util.*

fun main() {
    val time = Time()
//             ^ reference.new; defined: src/main/kotlin/com/example/util/Text.kt:9
    println(join(listOf("a")) + SEPARATOR + time.now())
//  ^ external: kotlin.io.println
//          ^ defined: src/main/kotlin/com/example/util/Text.kt:5
//                              ^ defined: src/main/kotlin/com/example/util/Text.kt:3
//                                               ^ defined: src/main/kotlin/com/example/util/Text.kt:10
}
`));

  it('resolves classes, objects, companion objects, data and sealed classes', () => expectCase(`
package com.example

sealed class Shape {
    abstract fun area(): Double
}

data class Circle(val radius: Double) : Shape() {
//         ^ definition.class; extends: com.example.Shape
    override fun area(): Double = radius * radius * PI
//               ^ overrides: com.example.Shape.area()
//                                ^ defined: 7

    companion object {
        const val PI = 3.14
        fun unit(): Circle = Circle(1.0)
//                           ^ reference.new; defined: 7
    }
}

object Registry {
    val shapes = mutableListOf<Shape>()
    fun register(shape: Shape) { shapes.add(shape) }
//                               ^ defined: 21
}

fun demo() {
    Registry.register(Circle.unit())
//  ^ defined: 20
//           ^ defined: 22
//                           ^ defined: 15
    Circle.PI
//         ^ defined: 14
}
`));
  it('knows what the compiler builds in and the stdlib model lacks: mutable collections, Nothing, array intrinsics', () => expectCase(`
// --- src/main/kotlin/com/example/Builtins.kt
package com.example

fun fail(): Nothing = throw IllegalStateException()
//          ^ external: kotlin.Nothing

fun fill(into: MutableMap<String, MutableList<Int>>) {
//             ^ external: kotlin.collections.MutableMap
//                                ^ external: kotlin.collections.MutableList
    val sizes = floatArrayOf(1f, 2f)
//              ^ external: kotlin.floatArrayOf
    val names = arrayOf("a")
//              ^ external: kotlin.arrayOf
}
`));
});

describe('Kotlin: extensions, overrides, suspend functions, properties', () => {
  it('resolves extension functions and properties by receiver type', () => expectCase(`
package com.example

class Order(val lines: List<String>)
class Invoice(val lines: List<String>)

val Order.size: Int get() = lines.size
fun Order.describe(): String = "order of $size"
//                                        ^ reference.read; defined: 6
fun Invoice.describe(): String = "invoice"

val Order.count: Int get() = lines.size
//                           ^ defined: 3
val Invoice.count: Int get() = 0
fun Order.isLarge(): Boolean = count > 10 && describe().isNotEmpty()
//                             ^ defined: 11
//                                           ^ defined: 7

fun use(order: Order, invoice: Invoice) {
    order.describe()
//        ^ defined: 7
    invoice.describe()
//          ^ defined: 9
    order.size
//        ^ defined: 6
}
`));

  it('links overrides and finds suspend functions from their callers', () => expectCase(`
package com.example

interface Notifier {
    suspend fun notify(message: String)
    val channel: String
}

class Mailer : Notifier {
//    ^ implements: com.example.Notifier
//             ^ reference.inherit; defined: 3
    override suspend fun notify(message: String) {}
//                       ^ overrides: com.example.Notifier.notify(String)
    override val channel: String = "mail"
//               ^ overrides: com.example.Notifier.channel
}

suspend fun send(notifier: Notifier) {
    notifier.notify("hello")
//           ^ reference.call; defined: 4
    notifier.channel
//           ^ reference.read; defined: 5
}
`));

  it('resolves property reads and writes; a backing field in an accessor is no reference of the property', () => expectCase(`
package com.example

class Counter {
    var count: Int = 0
        set(value) {
            field = value
//          ^ unresolved
//                  ^ reference.read; defined: 5
            field.inc()
//                ^ external: kotlin.Int.inc
        }

    fun increment() {
        count = count + 1
//      ^ reference.write; defined: 4
//              ^ reference.read; defined: 4
    }
}
`));
});

describe('Java and Kotlin together', () => {
  it('lets Kotlin use Java getters and setters as properties, and constructors without new', () => expectCase(`
// --- src/main/java/com/example/Person.java
package com.example;

public class Person {
    private String name;
    public Person(String name) { this.name = name; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public boolean isActive() { return true; }
}
// --- src/main/kotlin/com/example/Greeter.kt
package com.example

fun greet(): String {
    val person = Person("Ada")
//               ^ reference.new; defined: src/main/java/com/example/Person.java:3; defined: src/main/java/com/example/Person.java:5
    person.name = "Grace"
//         ^ reference.call; defined: src/main/java/com/example/Person.java:7
    return if (person.active) person.name else ""
//                    ^ defined: src/main/java/com/example/Person.java:8
//                                   ^ defined: src/main/java/com/example/Person.java:6
}
`));

  it('decides overloads by argument types from Kotlin: literals, named arguments, a call whose types fit no overload', () => expectCase(`
// --- src/main/java/com/example/Order.java
package com.example;

public class Order {
    public void discount(int percent) {}
    public void discount(String code) {}
    public void note(String text) {}
    public void quantity(short count) {}
}
// --- src/main/kotlin/com/example/Promotions.kt
package com.example

fun schedule(days: Int, label: String) {}

fun apply(order: Order, unknown: Mystery, any: Any) {
    require(any is String)
    order.note(any)
//        ^ defined: src/main/java/com/example/Order.java:6
    order.discount(10)
//        ^ defined: src/main/java/com/example/Order.java:4
    order.discount("SPRING")
//        ^ defined: src/main/java/com/example/Order.java:5
    order.quantity(2)
//        ^ defined: src/main/java/com/example/Order.java:7
    order.note(42)
//        ^ unresolved
    order.note(unknown.text())
//        ^ defined: src/main/java/com/example/Order.java:6
    schedule(label = "x", days = 1)
//  ^ defined: 3
    schedule("x", 1)
//  ^ unresolved
}

class Scheduler {
    fun plan() = 2.apply { schedule(this, "x") }
//                         ^ defined: 3
}
`));

  it('makes a Java getter a Kotlin property, read and written through the setter, and no property of a setter alone', () => expectCase(`
// --- src/main/java/com/example/Order.java
package com.example;

public class Order {
    private Status status;
    public Status getStatus() { return status; }
    public void setStatus(Status status) { this.status = status; }
    public void setNote(String note) {}
    public boolean isOpen() { return true; }
    public void setOpen(boolean open) {}
}
// --- src/main/java/com/example/Status.java
package com.example;

public enum Status { NEW }
// --- src/main/kotlin/com/example/OrderService.kt
package com.example

fun submit(order: Order, orders: MutableList<Order>) {
    order.status = Status.NEW
//        ^ reference.call; defined: src/main/java/com/example/Order.java:6
    val now = order.status
//                  ^ reference.call; defined: src/main/java/com/example/Order.java:5
    order.note = "no getter, so no property"
//        ^ unresolved
    order.isOpen = false
//        ^ defined: src/main/java/com/example/Order.java:9
    val fresh = mutableListOf<Order>()
    fresh.filter { it.status == now }
//                    ^ reference.call; defined: src/main/java/com/example/Order.java:5
}
`));

  it('lets Java use Kotlin properties, companions, objects and top-level types', () => expectCase(`
// --- src/main/kotlin/com/example/Account.kt
package com.example

class Account(val owner: String) {
    var balance: Long = 0

    companion object {
        fun open(owner: String): Account = Account(owner)
    }
}

object Bank {
    fun find(owner: String): Account? = null
}
// --- src/main/java/com/example/Teller.java
package com.example;

class Teller {
    long check(Account account) {
//             ^ defined: src/main/kotlin/com/example/Account.kt:3
        account.setBalance(account.getBalance() + 1);
//              ^ reference.write; defined: src/main/kotlin/com/example/Account.kt:4
//                                 ^ reference.read; defined: src/main/kotlin/com/example/Account.kt:4
        Account.Companion.open(account.getOwner());
//                        ^ defined: src/main/kotlin/com/example/Account.kt:7
//                                     ^ defined: src/main/kotlin/com/example/Account.kt:3
        return Bank.INSTANCE.find("x").getBalance();
//                           ^ defined: src/main/kotlin/com/example/Account.kt:12
    }
}
`));
  it('lets Java reach top-level functions and properties through the file facade (PricingKt)', () => expectCase(`
// --- src/main/kotlin/com/example/util/Pricing.kt
package com.example.util

const val TAX_RATE = 20
var rounding: Int = 2

fun withTax(cents: Long): Long = cents * (100 + TAX_RATE) / 100
fun withTax(cents: Long, rate: Int): Long = cents * (100 + rate) / 100
fun Long.rounded(): Long = this
// --- src/main/java/com/example/app/Till.java
package com.example.app;

import com.example.util.PricingKt;

class Till {
    long total(long cents) {
        long taxed = PricingKt.withTax(cents, PricingKt.TAX_RATE);
//                             ^ reference.call; defined: src/main/kotlin/com/example/util/Pricing.kt:7
//                                                      ^ reference.read; defined: src/main/kotlin/com/example/util/Pricing.kt:3
        PricingKt.setRounding(PricingKt.getRounding() + 1);
//                ^ reference.write; defined: src/main/kotlin/com/example/util/Pricing.kt:4
//                                      ^ reference.read; defined: src/main/kotlin/com/example/util/Pricing.kt:4
        return PricingKt.rounded(PricingKt.withTax(taxed));
//                       ^ reference.call; defined: src/main/kotlin/com/example/util/Pricing.kt:8
//                                         ^ reference.call; defined: src/main/kotlin/com/example/util/Pricing.kt:6
    }
}
// --- src/main/java/com/example/app/Other.java
package com.example.app;

class Other {
    long total() {
        return NowhereKt.withTax(1);
//                       ^ unresolved
    }
}
`));
  it('lets Java call a @JvmStatic companion member on the class itself', () => expectCase(`
// --- src/main/kotlin/com/example/Account.kt
package com.example

class Account(val owner: String) {
    companion object {
        @JvmStatic fun open(owner: String): Account = Account(owner)
    }
}
// --- src/main/java/com/example/Teller.java
package com.example;

class Teller {
    Account check() {
        return Account.open("x");
//                     ^ reference.call; defined: src/main/kotlin/com/example/Account.kt:5
    }
}
`));
});


describe('Kotlin: honest confidence and known gaps', () => {
  it('records members of an untyped receiver as candidates only', () => expectCase(`
package com.example

class A {
    fun close() {}
}

class B {
    fun close() {}
}

fun use(items: Unknown) {
    items.first().close()
//                ^ candidates: 4, 8
}
`));

  // \`$name\` in a string template is parsed as string content by the grammar, so it is no reference.
  it.skip('resolves simple names in string templates', () => expectCase(`
package com.example

fun greet(name: String) = "hello $name"
//                                ^ defined: 3
`));

  it('follows smart casts: if, &&, when and early exits', () => expectCase(`
package com.example

class Circle {
    fun radius() = 1.0
    val round = true
}

class Square {
    fun side() = 2.0
}

fun size(shape: Any): Double = if (shape is Circle) shape.radius() else 0.0
//                                                        ^ defined: 4

fun check(shape: Any, other: Any) {
    if (shape is Circle && shape.round) shape.radius()
//                               ^ defined: 5
//                                            ^ defined: 4
    when (shape) {
        is Square -> shape.side()
//                         ^ defined: 9
        is Circle -> shape.radius()
//                         ^ defined: 4
    }
    when {
        other is Square -> other.side()
//                               ^ defined: 9
    }
    if (other !is Circle) return
    other.radius()
//        ^ defined: 4
}

fun shadowed(shape: Any) {
    if (shape is Circle) {
        val shape = Square()
        shape.side()
//            ^ defined: 9
    }
}
`));

  // The grammar (tree-sitter-kotlin 1.1.0) rejects a one-line class body with a member followed by
  // another declaration; the file's outline and references are lost around the syntax error.
  it.skip('parses one-line class bodies', () => expectCase(`
package com.example

class A { fun close() {} }
//            ^ definition.method; qname: com.example.A.close()
class B { fun open() {} }
`));

  it('types lambda parameters and \`it\` from the function type or functional interface they are passed as', () => expectCase(`
// --- src/main/java/com/example/Listener.java
package com.example;

public interface Listener {
    void on(Order order);
}
// --- src/main/kotlin/com/example/Lambdas.kt
package com.example

class Order(val total: Long) {
    fun close() {}
}

fun <T> List<T>.each(block: (T) -> Unit) {}
fun visit(orders: List<Order>, visitor: (Order, Int) -> Unit) {}
fun withOrder(block: (Order) -> Unit) {}
fun listen(listener: Listener) {}

fun use(orders: List<Order>) {
    orders.each { it.close() }
//                   ^ defined: 4
    orders.each { order -> order.total }
//                               ^ defined: 3
    visit(orders) { order, i -> order.close() }
//                                    ^ defined: 4
    withOrder({ o -> o.close() })
//                     ^ defined: 4
    withOrder { outer -> orders.each { it.close() } }
//                                        ^ defined: 4
    listen { it.close() }
//              ^ defined: 4
}
`));

  it('types the implicit lambda parameter of a standard library function', () => expectCase(`
package com.example

class A {
    fun close() {}
}

fun use(items: List<A>) {
    items.forEach { it.close() }
//                     ^ defined: 4
}
`));
});

describe('Kotlin and Java libraries written like retrofit', () => {
  it('constructs a Java nested class from Kotlin and types the chain after it', () => expectCase(`
// --- src/main/java/retrofit2/Retrofit.java
package retrofit2;

public final class Retrofit {
    public <T> T create(final Class<T> service) { return null; }

    public static final class Builder {
        public Builder() {}
        public Builder baseUrl(String baseUrl) { return this; }
        public Retrofit build() { return new Retrofit(); }
    }
}
// --- src/test/java/retrofit2/Service.kt
package retrofit2

interface Service {
    fun body(): String
}

fun use() {
    val retrofit = Retrofit.Builder().baseUrl("http://example.com").build()
//                          ^ reference.new; defined: src/main/java/retrofit2/Retrofit.java:6; defined: src/main/java/retrofit2/Retrofit.java:7
//                                    ^ reference.call; defined: src/main/java/retrofit2/Retrofit.java:8
//                                                                  ^ reference.call; defined: src/main/java/retrofit2/Retrofit.java:9
    val service = retrofit.create(Service::class.java)
//                         ^ reference.call; defined: src/main/java/retrofit2/Retrofit.java:4
    service.body()
//          ^ reference.call; defined: 4
    val other = retrofit2.Retrofit.Builder().build()
//                                 ^ reference.new; defined: src/main/java/retrofit2/Retrofit.java:7
//                                           ^ reference.call; defined: src/main/java/retrofit2/Retrofit.java:9
}
`));

  it('counts delegation (`by`) as implementing the interface, with or without a body', () => expectCase(`
// --- src/main/java/retrofit2/Call.java
package retrofit2;

public interface Call<T> {
    T execute();
    void cancel();
}
// --- src/main/java/retrofit2/Callback.java
package retrofit2;

public interface Callback<T> {
    void onResponse(Call<T> call, T response);
}
// --- src/test/java/retrofit2/Delegates.kt
package retrofit2

class Wrapping(private val delegate: Call<String>) : Call<String> by delegate {
//    ^ implements: retrofit2.Call
//                                                   ^ reference.inherit; defined: src/main/java/retrofit2/Call.java:3
//                                                                   ^ reference.read; defined: 3
    override fun cancel() {}
//               ^ definition.method; overrides: retrofit2.Call#cancel()
}

class Forwarding<T>(callback: Callback<T>) : Callback<T> by callback
//    ^ implements: retrofit2.Callback

fun wrap(call: Call<String>): Call<String> {
    return object : Call<String> by call {
//                  ^ reference.inherit; defined: src/main/java/retrofit2/Call.java:3
//                                  ^ reference.read; defined: 14
        override fun execute(): String = "x"
//                   ^ overrides: retrofit2.Call#execute()
    }
}
`));
});

describe('Kotlin types as the JVM sees them', () => {
  it('links Kotlin overrides to Java methods across the type mapping, and Java overrides to Kotlin ones', () => expectCase(`
// --- src/main/java/retrofit2/CallAdapter.java
package retrofit2;

import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.List;
import kotlin.Unit;
import kotlin.jvm.functions.Function1;

public interface CallAdapter {
    abstract class Factory {
        public abstract CallAdapter get(Type returnType, Annotation[] annotations, Retrofit retrofit);
        public void count(int n) {}
        public void count(String n) {}
        public void boxed(Integer n) {}
        public boolean same(Object other) { return false; }
        public void all(List<String> items) {}
        public void each(Function1<String, Unit> action) {}
        public void many(String... names) {}
        public void bytes(byte[] data) {}
        public void boxes(Integer[] data) {}
    }
}
// --- src/main/java/retrofit2/Retrofit.java
package retrofit2;

public final class Retrofit {}
// --- src/test/java/retrofit2/Factories.kt
package retrofit2

import java.lang.reflect.Type

class Adapters : CallAdapter.Factory() {
    override fun get(returnType: Type, annotations: Array<out Annotation>, retrofit: Retrofit): CallAdapter? = null
//               ^ overrides: retrofit2.CallAdapter.Factory#get(Type, Annotation[], Retrofit)
    override fun count(n: Int) {}
//               ^ overrides: retrofit2.CallAdapter.Factory#count(int)
    override fun boxed(n: Int?) {}
//               ^ overrides: retrofit2.CallAdapter.Factory#boxed(Integer)
    override fun same(other: Any?): Boolean = true
//               ^ overrides: retrofit2.CallAdapter.Factory#same(Object)
    override fun all(items: MutableList<String>) {}
//               ^ overrides: retrofit2.CallAdapter.Factory#all(List)
    override fun each(action: (String) -> Unit) {}
//               ^ overrides: retrofit2.CallAdapter.Factory#each(Function1)
    override fun many(vararg names: String) {}
//               ^ overrides: retrofit2.CallAdapter.Factory#many(String...)
    override fun bytes(data: ByteArray) {}
//               ^ overrides: retrofit2.CallAdapter.Factory#bytes(byte[])
    override fun boxes(data: Array<Int>) {}
//               ^ overrides: retrofit2.CallAdapter.Factory#boxes(Integer[])
}

fun choose(factory: CallAdapter.Factory, annotations: Array<Annotation>) {
    factory.count(1)
//          ^ defined: src/main/java/retrofit2/CallAdapter.java:12
    factory.count("1")
//          ^ defined: src/main/java/retrofit2/CallAdapter.java:13
    factory.get(factory.javaClass, annotations, Retrofit())
//          ^ defined: src/main/java/retrofit2/CallAdapter.java:11
}
`));

  it('links Java overrides of Kotlin interface methods, and picks Kotlin overloads from Java', () => expectCase(`
// --- src/main/kotlin/com/example/Sink.kt
package com.example

interface Sink {
    fun write(data: ByteArray)
    fun write(names: Array<String>)
    fun write(count: Long)
    fun each(action: (String) -> Unit)
    fun all(items: List<Any>)
}
// --- src/main/java/com/example/FileSink.java
package com.example;

import java.util.List;
import kotlin.Unit;
import kotlin.jvm.functions.Function1;

class FileSink implements Sink {
    @Override public void write(byte[] data) {}
//                        ^ overrides: com.example.Sink.write(ByteArray)
    @Override public void write(String[] names) {}
    @Override public void write(long count) {}
    @Override public void each(Function1<? super String, Unit> action) {}
//                        ^ overrides: com.example.Sink.each((String) -> Unit)
    @Override public void all(List<? extends Object> items) {}
//                        ^ overrides: com.example.Sink.all(List)

    void use(Sink sink, String[] names, byte[] bytes) {
        sink.write(names);
//           ^ defined: src/main/kotlin/com/example/Sink.kt:5
        sink.write(bytes);
//           ^ defined: src/main/kotlin/com/example/Sink.kt:4
        sink.write(1L);
//           ^ defined: src/main/kotlin/com/example/Sink.kt:6
    }
}
`));
});

describe('Kotlin: type parameters and constructor delegation', () => {
  it('resolves a function\'s type parameters and `super(…)` of a class with secondary constructors', () => expectCase(`
package com.example

interface JavaScriptModule
interface C {
  public fun <T : JavaScriptModule> getJSModule(jsInterface: Class<T>): T?
//                                                                 ^ defined: 5
  fun <T> other(x: T): T
//                 ^ defined: 7
}
open class Base(val m: String) {
  constructor(m: String, n: Int) : this(m)
}
class E : Base {
  constructor(m: String) : super(m)
//                         ^ defined: 10
  constructor(m: String, t: Throwable) : super(m, 1)
//                                       ^ defined: 11
}
class F : RuntimeException {
  constructor(m: String) : super(m)
//                         ^ external: kotlin.RuntimeException.RuntimeException
}
`));
});

describe('Kotlin as Java sees it (@JvmName, suspend, @JvmOverloads, accessors)', () => {
  it('reaches @file:JvmName facades and tells apart overloads that differ in type arguments', () => expectCase(`
// --- src/main/java/retrofit2/Call.java
package retrofit2;

public interface Call<T> {
    T execute();
}
// --- src/main/java/retrofit2/KotlinExtensions.kt
@file:JvmName("KotlinExtensions")

package retrofit2

suspend fun <T : Any> Call<T>.await(): T = execute()
//                             ^ definition.function; qname: retrofit2.await[Call<T>]()

@JvmName("awaitNullable")
suspend fun <T : Any> Call<T?>.await(): T? = execute()
//                             ^ qname: retrofit2.await[Call<T?>]()

@JvmName("awaitUnit")
suspend fun Call<Unit>.await() {}
//                     ^ qname: retrofit2.await[Call<Unit>]()

suspend fun <T> Call<T>.awaitResponse(timeout: Long = 0): T = execute()
//                      ^ qname: retrofit2.awaitResponse[Call](Long)
// --- src/main/java/retrofit2/HttpServiceMethod.java
package retrofit2;

import kotlin.coroutines.Continuation;

final class HttpServiceMethod {
    Object adapt(Call<Object> call, Continuation<Object> continuation, boolean nullable) {
        if (nullable) return KotlinExtensions.awaitNullable(call, continuation);
//                                            ^ reference.call; defined: src/main/java/retrofit2/KotlinExtensions.kt:9
        KotlinExtensions.awaitUnit(null, continuation);
//                       ^ reference.call; defined: src/main/java/retrofit2/KotlinExtensions.kt:13
        KotlinExtensions.awaitResponse(call, 1L, continuation);
//                       ^ reference.call; defined: src/main/java/retrofit2/KotlinExtensions.kt:16
        KotlinExtensions.awaitResponse(call, continuation);
//                       ^ candidates: src/main/java/retrofit2/KotlinExtensions.kt:16
        return KotlinExtensions.await(call, continuation);
//                              ^ reference.call; defined: src/main/java/retrofit2/KotlinExtensions.kt:5
    }
}
`));

  it("passes a suspend member's Continuation, honours @JvmOverloads, is-properties, @JvmField and @JvmStatic", () => expectCase(`
// --- src/main/kotlin/com/example/Service.kt
package com.example

class Service {
    suspend fun load(id: String): String = id
    fun load(id: String, retries: Int): String = id
    @JvmOverloads fun open(path: String, mode: Int = 0) {}
    fun close(path: String, force: Boolean = false) {}
    var isOpen: Boolean = false
    @JvmField val tag: String = "s"

    companion object {
        @JvmStatic fun create(): Service = Service()
        fun internal(): Service = Service()
    }
}
// --- src/main/java/com/example/Client.java
package com.example;

import kotlin.coroutines.Continuation;

class Client {
    Object use(Service service, Continuation<String> continuation) {
        service.load("a", continuation);
//              ^ defined: src/main/kotlin/com/example/Service.kt:4
        service.load("a", 2);
//              ^ defined: src/main/kotlin/com/example/Service.kt:5
        service.open("p");
//              ^ defined: src/main/kotlin/com/example/Service.kt:6
        service.setOpen(!service.isOpen());
//              ^ reference.write; defined: src/main/kotlin/com/example/Service.kt:8
//                               ^ reference.read; defined: src/main/kotlin/com/example/Service.kt:8
        service.getTag();
//              ^ unresolved
        Service.Companion.internal();
//                        ^ defined: src/main/kotlin/com/example/Service.kt:13
        Service.internal();
//              ^ candidates: src/main/kotlin/com/example/Service.kt:13
        return Service.create().tag;
//                     ^ defined: src/main/kotlin/com/example/Service.kt:12
//                              ^ defined: src/main/kotlin/com/example/Service.kt:9
    }
}
`));
});

describe('Kotlin: Java primitives as Kotlin types', () => {
  it('calls kotlin.Long members on the long a Java method returns', () => expectCase(`
// --- src/main/java/com/example/Clock.java
package com.example;

public class Clock {
    public long now() { return 0; }
}
// --- src/main/kotlin/com/example/Use.kt
package com.example

fun use(clock: Clock): Float = clock.now().toFloat()
//                                         ^ external: kotlin.Long.toFloat
`));
});

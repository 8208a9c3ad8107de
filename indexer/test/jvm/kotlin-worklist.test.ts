// Kotlin cases from the kotlinc oracle's work list on ReactAndroid (bench:jvm-accuracy), each a
// fixture of our own reduced from the miss it came from, with caret assertions (caret-cases.ts).
import { describe, expect, it } from 'vitest';
import { caretFailures } from './caret-cases.ts';

async function expectCase(source: string): Promise<void> {
  expect(await caretFailures(source, 'src/main/kotlin/Case.kt')).toEqual([]);
}

describe('Kotlin: values through !! and ?:', () => {
  it('types `x!!` as x and `x ?: y` as x, so members resolve on them', () => expectCase(`
// --- src/main/kotlin/com/example/Readable.kt
package com.example

interface ReadableMap {
    fun getDouble(name: String): Double
    fun getArray(name: String): ReadableArray?
}

interface ReadableArray {
    fun size(): Int
    fun getDouble(index: Int): Double
    fun getMap(index: Int): ReadableMap?
}

interface MapBuffer {
    fun getDouble(key: Int): Double
}
// --- src/main/kotlin/com/example/Use.kt
package com.example

fun use(transforms: ReadableArray, extras: ReadableArray?): Double {
    val transform = transforms.getMap(0)!!
    val matrix = transform.getArray("matrix")!!
    var sum = matrix.getDouble(1)
//                   ^ defined: src/main/kotlin/com/example/Readable.kt:10
    if (extras != null) {
        for (i in 0..<extras.size()) {
            val map = extras.getMap(i) ?: continue
            sum += map.getDouble("value")
//                     ^ defined: src/main/kotlin/com/example/Readable.kt:4
        }
    }
    return sum + transform.getDouble("scale")
//                         ^ defined: src/main/kotlin/com/example/Readable.kt:4
}
`));
});

describe('Kotlin: constructor calls and imports through objects', () => {
  it('constructs a repository class named in a class whose supertype the index cannot see', () => expectCase(`
// --- src/main/kotlin/com/example/NoSuchKeyException.kt
package com.example

class NoSuchKeyException(msg: String) : RuntimeException(msg)
// --- src/main/kotlin/com/example/NativeMap.kt
package com.example

import com.facebook.jni.HybridClassBase

class NativeMap : HybridClassBase() {
    fun get(name: String): Any = throw NoSuchKeyException(name)
//                                     ^ reference.new; qname: com.example.NoSuchKeyException
}
`));

  it("resolves imports of a companion's and an object's members, and the calls they import", () => expectCase(`
// --- src/main/kotlin/com/example/style/BorderStyle.kt
package com.example.style

enum class BorderStyle {
    SOLID, DASHED;

    companion object {
        fun fromString(style: String): BorderStyle? = null
    }
}
// --- src/main/kotlin/com/example/Applicator.kt
package com.example

object Applicator {
    fun setBackgroundColor(color: Int?) {}
}
// --- src/main/kotlin/com/example/Manager.kt
package com.example

import com.example.Applicator.setBackgroundColor
//                            ^ reference.import; defined: src/main/kotlin/com/example/Applicator.kt:4
import com.example.style.BorderStyle.Companion.fromString
//                                             ^ reference.import; defined: src/main/kotlin/com/example/style/BorderStyle.kt:7

fun manage(style: String) {
    setBackgroundColor(fromString(style)?.ordinal)
//  ^ defined: src/main/kotlin/com/example/Applicator.kt:4
//                     ^ defined: src/main/kotlin/com/example/style/BorderStyle.kt:7
}
`));
});

describe("Kotlin: members through a type parameter's bound", () => {
  it("calls a Java generic base class's methods on a value typed by a bounded type parameter", () => expectCase(`
// --- src/main/java/com/example/BaseViewManager.java
package com.example;

public abstract class BaseViewManager<T extends View, C extends Node> {
  public void setBackgroundColor(T view, int backgroundColor) {}
  public void setZIndex(T view, float zIndex) {}
  public void setHint(T view, String hint) {}
}
// --- src/main/java/com/example/View.java
package com.example;

public class View {}
// --- src/main/java/com/example/Node.java
package com.example;

public class Node {}
// --- src/main/java/com/example/Colors.java
package com.example;

public class Colors {
  public static Integer getColor(Object value, int fallback) { return fallback; }
}
// --- src/main/kotlin/com/example/Delegate.kt
package com.example

abstract class Delegate<T : View, U : BaseViewManager<T, out Node>>(protected val mViewManager: U) {
    fun setProperty(view: T, name: String, value: Any?) {
        mViewManager.setHint(view, "x")
//                   ^ defined: src/main/java/com/example/BaseViewManager.java:6
        when (name) {
            "hint" -> mViewManager.setHint(view, value as String?)
//                                 ^ defined: src/main/java/com/example/BaseViewManager.java:6
            "z" -> mViewManager.setZIndex(view, (value as Double?)?.toFloat() ?: 0.0f)
//                              ^ defined: src/main/java/com/example/BaseViewManager.java:5
            "bg" -> mViewManager.setBackgroundColor(view, Colors.getColor(value, 0))
//                               ^ defined: src/main/java/com/example/BaseViewManager.java:4
        }
    }
}
`));
});

describe('Kotlin: the grammar\'s prefix operators', () => {
  it('reads `!isReady(name)` and `!view.isShown()` as calls of the operand, as kotlinc does', () => expectCase(`
package com.example

class View {
    fun isShown(): Boolean = true
}

class Manager(private val view: View) {
    private fun isReady(name: String): Boolean = name.isNotEmpty()

    fun get(name: String): String? {
        if (!isReady(name)) {
//           ^ reference.call; defined: 8
            return null
        }
        if (!view.isShown()) return null
//                ^ reference.call; defined: 4
        return name
    }
}
`));
});

describe("Kotlin: the grammar's misreadings, repaired and parsed again", () => {
  it('reads a name `dynamic` (a keyword to the grammar) and a nested class whose constructor starts on the next line', () => expectCase(`
package com.example

class Pool<T> {
    fun acquire(): T? = null
}

class DynamicValue {
    var index: Int = -1
    val type: String get() = "x"

    class Page
    private constructor(private val id: Int) {
        fun getId(): Int = id
//                         ^ defined: 12
    }

    companion object {
        private val pool = Pool<DynamicValue>()

        fun create(index: Int): DynamicValue {
            val dynamic = pool.acquire() ?: DynamicValue()
//              ^ definition.local
            dynamic.index = index
//          ^ defined: 21
//                  ^ defined: 8
            return dynamic
        }

        fun kind(dynamic: DynamicValue): String = dynamic.type
//                                                        ^ defined: 9
    }
}
`));

  it('reads the rest of a file after two one-line class bodies', () => expectCase(`
package com.example

class Small { val x = 1 }
class Tiny { val y = 2 }

class Service {
    fun run(small: Small): Int = small.x + helper()
//                                     ^ defined: 3
//                                         ^ reference.call; defined: 10
    private fun helper(): Int = 0
//              ^ definition.method
}
`));

  it('reads a class whose annotated constructor starts on the next line, at the lines the file has', () => expectCase(`
// --- src/main/java/com/example/bridge/Arguments.java
package com.example.bridge;

public class Arguments {
  public static NativeMap fromBundle(Object bundle) { return null; }
}
// --- src/main/java/com/example/bridge/NativeMap.java
package com.example.bridge;

public class NativeMap {}
// --- src/main/kotlin/com/example/Surface.kt
package com.example

import com.example.bridge.Arguments
import com.example.bridge.NativeMap

annotation class VisibleForTesting

class Surface
@VisibleForTesting
internal constructor(
    @get:JvmName("getHandler") internal val handler: String,
) {
    internal val host: String?
        get() = handler
//              ^ defined: 11

    fun setProps(newProps: Any?) {
        val nativeProps = newProps?.let { Arguments.fromBundle(it) as NativeMap }
//                                        ^ defined: src/main/java/com/example/bridge/Arguments.java:3
    }
}
// --- src/main/kotlin/com/example/SurfaceView.kt
package com.example

class SurfaceView(private val surface: Surface) {
    fun host(): String? = surface.host
//                                ^ defined: src/main/kotlin/com/example/Surface.kt:13
}
`));
});

describe('Kotlin: string templates', () => {
  it('reads a template\'s simple names, which the grammar keeps in the string\'s text, and no escaped dollar', () => expectCase(`
package com.example

class Order(val id: String, val lines: List<String>)

fun describe(order: Order, total: Int, price: Int): String {
    val count = order.lines.size
    return "order $count of $total: \\$price, \${order.id}, $order.id"
//                 ^ reference.read; defined: 6
//                           ^ defined: 5
//                                      ^ unresolved
//                                                   ^ defined: 3
//                                                           ^ defined: 5
}
`));
});

describe("Kotlin: a type parameter's where clause", () => {
  it('gives a value of the type parameter the members of every bound', () => expectCase(`
package com.example

open class ViewGroup {
    val id: Int = 0
}

interface HasStateWrapper {
    val stateWrapper: String?
}

interface HasThrottle {
    var scrollEventThrottle: Int
}

object Helper {
    fun <T> update(scrollView: T): String? where T : HasStateWrapper, T : ViewGroup {
        if (scrollView.id == 0) return null
//                     ^ defined: 4
        return scrollView.stateWrapper
//                        ^ defined: 8
    }

    fun <T> throttle(view: T): Int where T : HasThrottle?, T : ViewGroup = view?.scrollEventThrottle ?: 0
//                                                                                ^ defined: 12
}
`));
});

describe('Kotlin: a superclass constructor call in a class header', () => {
  it('names the class and the constructor the arguments call, a primary constructor being the class', () => expectCase(`
// --- src/main/java/com/example/BaseManager.java
package com.example;

public abstract class BaseManager<T, N> {
  public BaseManager() {}
  public BaseManager(String name) {}
}
// --- src/main/kotlin/com/example/Managers.kt
package com.example

open class Plain(val name: String)

class SwitchManager : BaseManager<String, Int>() {}
//                    ^ reference.inherit; defined: src/main/java/com/example/BaseManager.java:4; defined: src/main/java/com/example/BaseManager.java:3
class NamedManager : BaseManager<String, Int>("named") {}
//                   ^ defined: src/main/java/com/example/BaseManager.java:5
class Child : Plain("child") {}
//            ^ defined: 3
`));
});

describe('Java and Kotlin: a switch on a Kotlin property', () => {
  it('reads case labels as names in scope when the subject is a Kotlin Int', () => expectCase(`
// --- src/main/kotlin/com/example/MapBuffer.kt
package com.example

interface Entry {
    val key: Int
}
// --- src/main/java/com/example/Props.java
package com.example;

class Props {
  static final int KEY_COLOR = 0;

  int read(Entry entry) {
    switch (entry.getKey()) {
      case KEY_COLOR:
//         ^ defined: 4
        return 1;
      default:
        return 0;
    }
  }
}
`));
});

describe("Kotlin: a lambda's implicit it", () => {
  it('is the lambda parameter before any guess at a member of the library class around it', () => expectCase(`
package com.example

import android.content.Context
import android.graphics.drawable.LayerDrawable
import android.graphics.Path

class Corner(val horizontal: Float, val vertical: Float)
class Computed(val topLeft: Corner, val bottomLeft: Corner)
class Style(val topLeft: Corner?, val bottomLeft: Corner?) {
    fun resolve(direction: Int, context: Context, width: Float, height: Float): Computed = Computed(Corner(0f, 0f), Corner(0f, 0f))
}

internal class Drawable(
    private val context: Context,
    var style: Style? = null,
) : LayerDrawable(arrayOf()) {
    fun outline(path: Path) {
        val computed =
            style?.resolve(
                layoutDirection, context, bounds.width().toFloat(), bounds.height().toFloat())

        computed?.let {
            path.addRoundRect(
                floatArrayOf(
                    (it.bottomLeft.horizontal + 0f),
//                      ^ defined: 8
                ))
        }
    }
}
`));
});

describe('Kotlin: an empty primary constructor beside a secondary one', () => {
  it('is what Foo() and this() call, not the secondary constructor that takes an argument', () => expectCase(`
package com.example

open class CookieHandler

class Context

class ForwardingCookieHandler() : CookieHandler() {
    constructor(context: Context) : this()
//                                  ^ reference.call; defined: 7
}

fun make(): ForwardingCookieHandler = ForwardingCookieHandler()
//                                    ^ reference.new; defined: 7
`));
});

describe("Kotlin: a primary constructor's parameter beside a property of its name", () => {
  it('is what the class\'s initializers read, and none of its functions', () => expectCase(`
package com.example

class Order(name: String, val count: Int) {
    val name: String = name.trim()
//                     ^ defined: 3
    val label = name.length
//              ^ defined: 3
    fun show(): String = name
//                       ^ defined: 4
}
`));
});

describe('Kotlin: @get:JvmName seen from Java', () => {
  it('resolves the getter Java calls by the name the annotation gives to the property', () => expectCase(`
// --- src/main/kotlin/com/example/Surface.kt
package com.example

class Surface(@get:JvmName("getSurfaceHandler") internal val handler: String) {
    @get:JvmName("isReady") val ready: Boolean = true
}
// --- src/main/java/com/example/Use.java
package com.example;

class Use {
  String f(Surface s) {
    boolean r = s.isReady();
//                ^ defined: src/main/kotlin/com/example/Surface.kt:4
    return s.getSurfaceHandler();
//           ^ defined: src/main/kotlin/com/example/Surface.kt:3
  }
}
`));
});

describe('Kotlin: lambdas with a receiver', () => {
  it('resolve names on the receiver of apply, run and with, and of a repository function type with a receiver', () => expectCase(`
package com.example

class Order(val total: Int) {
    fun close() {}
}

class Builder {
    fun add(order: Order) {}
}

fun build(block: Builder.() -> Unit): Builder = Builder().apply(block)

fun use(order: Order) {
    order.apply { close() }
//                ^ defined: 4
    with(order) { close() }
//                ^ defined: 4
    order.run { total }
//              ^ defined: 3
    build { add(order) }
//          ^ defined: 8
}
`));
});

describe('Kotlin: a lambda passed to a SAM constructor or a primary constructor', () => {
  it("takes the Java interface's method's parameters, or the class parameter's function type", () => expectCase(`
// --- src/main/java/com/example/Check.java
package com.example;

public interface Check {
  boolean test(Order order);
}
// --- src/main/kotlin/com/example/Use.kt
package com.example

class Order(val total: Int)

class Task(val check: (Order) -> Boolean)

fun check(): Check = Check { it.total > 1 }
//                              ^ defined: 3
fun task(): Task = Task { it.total > 2 }
//                           ^ defined: 3
`));
});

describe("Kotlin: a value inferred from a lambda's last statement", () => {
  it('types run { … }, x?.let { … } and with(x) { … } by what their lambda returns', () => expectCase(`
package com.example

class Order(val total: Int) {
    fun close() {}
}

class Radius(val total: Int)

fun make(): Order = Order(1)

fun use(order: Order?): Int {
    val made = run { make() }
    made.close()
//       ^ defined: 4
    val other = order?.let { Radius(it.total + 1) }
    val third = with(made) { Radius(total) }
    return (other?.total ?: 0) + third.total
//                 ^ defined: 7
//                                     ^ defined: 7
}
`));
});

describe('Kotlin: a local named like the property its initializer reads', () => {
  it('is seen after its declaration, not in its own initializer', () => expectCase(`
package com.example

class Host {
    fun start() {}
}

class Service {
    private val host: Host? = null

    fun run() {
        val host = checkNotNull(host)
//                              ^ defined: 8
        host.start()
//      ^ defined: 11
//           ^ defined: 4
        for (h in listOf(host)) h.start()
//                                ^ defined: 4
    }
}
`));
});

describe('Kotlin: lambda targets in return, expression bodies, if values under return, casts', () => {
  it("type it by the function's return type or the cast's type", () => expectCase(`
package com.example

class Order(val total: Int)

fun body(): (Order) -> Int = { it.total }
//                                ^ defined: 3
fun pick(large: Boolean): (Order) -> Int {
    if (large) return { it.total * 2 }
//                         ^ defined: 3
    return if (large) { { it.total } } else { { 0 } }
//                            ^ defined: 3
}

val asCheck = { it.total > 2 } as (Order) -> Boolean
//                 ^ defined: 3
`));
});

describe("Kotlin: a property written through a Java setter whose getter a library supertype declares", () => {
  it('calls the setter, and no property of a setter alone otherwise', () => expectCase(`
// --- src/main/java/com/example/ScrollView.java
package com.example;

import android.view.ViewGroup;

public class ScrollView extends ViewGroup {
  public void setRemoveClippedSubviews(boolean remove) {}
}
// --- src/main/java/com/example/Plain.java
package com.example;

public class Plain {
  public void setLabel(String label) {}
}
// --- src/main/kotlin/com/example/Manager.kt
package com.example

fun configure(view: ScrollView, plain: Plain) {
    view.removeClippedSubviews = true
//       ^ reference.call; defined: src/main/java/com/example/ScrollView.java:6
    plain.label = "x"
//        ^ unresolved
}
`));
});

describe("Java and Kotlin: a Kotlin interface's property implemented by a Java class", () => {
  it("is read and written through the Java class's getter and setter on a value of that class", () => expectCase(`
// --- src/main/kotlin/com/example/UIManager.kt
package com.example

interface UIManager {
    val eventDispatcher: String
    var throttle: Int
}
// --- src/main/java/com/example/FabricUIManager.java
package com.example;

public class FabricUIManager implements UIManager {
  @Override public String getEventDispatcher() { return ""; }
  @Override public int getThrottle() { return 0; }
  @Override public void setThrottle(int t) {}
}
// --- src/main/kotlin/com/example/Instance.kt
package com.example

class Instance(private val fabricUIManager: FabricUIManager, private val ui: UIManager) {
    val dispatcher: String
        get() = fabricUIManager.eventDispatcher
//                              ^ defined: src/main/java/com/example/FabricUIManager.java:4
    fun set() {
        fabricUIManager.throttle = 2
//                      ^ defined: src/main/java/com/example/FabricUIManager.java:6
        ui.throttle = 3
//         ^ defined: src/main/kotlin/com/example/UIManager.kt:5
    }
}
`));
});

describe('Kotlin: a fun interface', () => {
  it('is functional: its one bodyless function types a lambda passed as it or to its SAM constructor', () => expectCase(`
package com.example

class Order(val total: Int)

fun interface Check {
    fun test(order: Order): Boolean
    fun describe(): String = "check"
}

fun check(): Check = Check { it.total > 1 }
//                              ^ defined: 3
fun run(check: Check) {}

fun use() = run { it.total > 2 }
//                   ^ defined: 3
`));
});

// The Kotlin references oracle of the JVM accuracy bench (jvm-accuracy.ts): the Kotlin compiler of
// the npm package kotlin-compiler (its K1 front end, the one whose BindingContext the jar still
// exposes as an API: TopDownAnalyzerFacadeForJVM), no Sextant code. Compiled with that package's
// kotlinc and run at bench time by jvm-oracles.ts.
//
//   java -cp <this>:kotlin-compiler.jar:kotlin-stdlib.jar KotlincReferencesKt <repository root> <file list> <output file> <class path jar>...
//
// The file list holds repository-relative .kt and .java paths: the Kotlin files are analysed, the
// Java files are Java source roots (so a Kotlin call of a Java method resolves to its source
// declaration). The class path holds the Kotlin standard library; whatever else the corpus needs
// (the Android SDK, androidx) is missing and leaves its references unresolved.
//
// Output: the format of JavacReferences.java (D declaration, R reference, U unresolved name;
// 1-based lines, UTF-16 columns). A reference is every simple name in a Kotlin file whose
// REFERENCE_TARGET is a declaration of the corpus: a type, function, property, constructor or
// enum entry, not a local or parameter. Kotlin's views of declarations are mapped to what is
// written: a fake override to the member it inherits, a Java getter or setter used as a property
// (`order.status`) to the method the access calls, a SAM constructor to its interface, and a
// constructor call to the class as well (as `new Foo()` names the class in Java), a primary
// constructor being the class itself.
// The K1 API is deprecated (an error since Kotlin 2.3) but still in the jar; these opt in to it.
@file:OptIn(K1Deprecation::class, ExperimentalCompilerApi::class, CoreEnvironmentDeprecation::class, CompilerConfiguration.Internals::class, MessageCollectorAccess::class)
@file:Suppress("DEPRECATION", "DEPRECATION_ERROR")

import com.intellij.openapi.util.Disposer
import org.jetbrains.kotlin.CoreEnvironmentDeprecation
import org.jetbrains.kotlin.K1Deprecation
import org.jetbrains.kotlin.config.MessageCollectorAccess
import com.intellij.psi.PsiElement
import com.intellij.psi.PsiNameIdentifierOwner
import org.jetbrains.kotlin.cli.common.config.addKotlinSourceRoot
import org.jetbrains.kotlin.cli.extensionsStorage
import org.jetbrains.kotlin.compiler.plugin.CompilerPluginRegistrar
import org.jetbrains.kotlin.compiler.plugin.ExperimentalCompilerApi
import org.jetbrains.kotlin.cli.common.messages.CompilerMessageSeverity
import org.jetbrains.kotlin.cli.common.messages.CompilerMessageSourceLocation
import org.jetbrains.kotlin.cli.common.messages.MessageCollector
import org.jetbrains.kotlin.cli.jvm.compiler.EnvironmentConfigFiles
import org.jetbrains.kotlin.cli.jvm.compiler.KotlinCoreEnvironment
import org.jetbrains.kotlin.cli.jvm.compiler.NoScopeRecordCliBindingTrace
import org.jetbrains.kotlin.cli.jvm.compiler.TopDownAnalyzerFacadeForJVM
import org.jetbrains.kotlin.cli.jvm.config.addJavaSourceRoot
import org.jetbrains.kotlin.cli.jvm.config.addJvmClasspathRoots
import org.jetbrains.kotlin.config.ApiVersion
import org.jetbrains.kotlin.config.CommonConfigurationKeys
import org.jetbrains.kotlin.config.CompilerConfiguration
import org.jetbrains.kotlin.config.JVMConfigurationKeys
import org.jetbrains.kotlin.config.LanguageVersion
import org.jetbrains.kotlin.config.LanguageVersionSettingsImpl
import org.jetbrains.kotlin.descriptors.CallableMemberDescriptor
import org.jetbrains.kotlin.descriptors.ClassConstructorDescriptor
import org.jetbrains.kotlin.descriptors.ClassDescriptor
import org.jetbrains.kotlin.descriptors.ConstructorDescriptor
import org.jetbrains.kotlin.descriptors.DeclarationDescriptor
import org.jetbrains.kotlin.descriptors.FunctionDescriptor
import org.jetbrains.kotlin.descriptors.PropertyDescriptor
import org.jetbrains.kotlin.descriptors.TypeAliasDescriptor
import org.jetbrains.kotlin.descriptors.synthetic.SyntheticMemberDescriptor
import org.jetbrains.kotlin.psi.KtBinaryExpression
import org.jetbrains.kotlin.psi.KtConstructorDelegationCall
import org.jetbrains.kotlin.psi.KtFile
import org.jetbrains.kotlin.psi.KtInstanceExpressionWithLabel
import org.jetbrains.kotlin.psi.KtNameReferenceExpression
import org.jetbrains.kotlin.psi.KtNamedDeclaration
import org.jetbrains.kotlin.psi.KtPrimaryConstructor
import org.jetbrains.kotlin.psi.KtQualifiedExpression
import org.jetbrains.kotlin.psi.KtSimpleNameExpression
import org.jetbrains.kotlin.psi.KtTreeVisitorVoid
import org.jetbrains.kotlin.psi.KtUnaryExpression
import org.jetbrains.kotlin.psi.KtClassOrObject
import org.jetbrains.kotlin.psi.KtParameter
import org.jetbrains.kotlin.psi.KtProperty
import org.jetbrains.kotlin.psi.KtNamedFunction
import org.jetbrains.kotlin.psi.KtSecondaryConstructor
import org.jetbrains.kotlin.psi.KtTypeAlias
import org.jetbrains.kotlin.psi.KtEnumEntry
import org.jetbrains.kotlin.lexer.KtTokens
import org.jetbrains.kotlin.resolve.BindingContext
import org.jetbrains.kotlin.resolve.calls.util.getResolvedCall
import org.jetbrains.kotlin.resolve.DescriptorToSourceUtils
import org.jetbrains.kotlin.resolve.DescriptorUtils
import org.jetbrains.kotlin.synthetic.SyntheticJavaPropertyDescriptor
import org.jetbrains.kotlin.types.error.ErrorUtils
import java.io.File
import java.io.PrintWriter

private lateinit var root: File
private lateinit var out: PrintWriter
private val ids = HashMap<String, Int>()
private val lineStarts = HashMap<String, IntArray>()
private var references = 0L

fun main(args: Array<String>) {
    root = File(args[0]).canonicalFile
    val files = File(args[1]).readLines().filter { it.isNotBlank() }
    var errors = 0
    val configuration = CompilerConfiguration()
    configuration.put(CommonConfigurationKeys.MODULE_NAME, "oracle")
    configuration.put(CommonConfigurationKeys.MESSAGE_COLLECTOR_KEY, object : MessageCollector {
        override fun clear() {}
        override fun hasErrors() = errors > 0
        override fun report(severity: CompilerMessageSeverity, message: String, location: CompilerMessageSourceLocation?) {
            if (severity.isError) errors++
        }
    })
    // K1, the front end whose BindingContext is an API, analyses Kotlin up to 1.9.
    configuration.put(CommonConfigurationKeys.LANGUAGE_VERSION_SETTINGS, LanguageVersionSettingsImpl(LanguageVersion.KOTLIN_1_9, ApiVersion.KOTLIN_1_9))
    configuration.put(JVMConfigurationKeys.JDK_HOME, File(System.getProperty("java.home")))
    configuration.addJvmClasspathRoots(args.drop(3).map { File(it) })
    for (path in files) {
        val file = File(root, path)
        if (path.endsWith(".java")) configuration.addJavaSourceRoot(file) else configuration.addKotlinSourceRoot(file.path)
    }
    // No compiler plugins, but the environment wants their (empty) registry.
    configuration.extensionsStorage = CompilerPluginRegistrar.ExtensionStorage()
    val disposable = Disposer.newDisposable()
    val environment = KotlinCoreEnvironment.createForProduction(disposable, configuration, EnvironmentConfigFiles.JVM_CONFIG_FILES)
    val ktFiles = environment.getSourceFiles()
    val trace = NoScopeRecordCliBindingTrace(environment.project)
    TopDownAnalyzerFacadeForJVM.analyzeFilesWithJavaIntegration(environment.project, ktFiles, trace, configuration, environment::createPackagePartProvider)
    val context = trace.bindingContext
    File(args[2]).printWriter().use { writer ->
        out = writer
        for (file in ktFiles) declarations(file, context)
        for (file in ktFiles) references(file, context)
    }
    System.err.println("kotlinc analysed ${ktFiles.size} Kotlin files with ${files.count { it.endsWith(".java") }} Java files as sources ($errors errors): ${ids.size} declarations, $references references to them")
    Disposer.dispose(disposable)
}

private fun relative(element: PsiElement): String? {
    val path = element.containingFile?.virtualFile?.path ?: return null
    val file = File(path).canonicalFile
    if (!file.path.startsWith(root.path + File.separator)) return null
    return file.path.substring(root.path.length + 1)
}

/** `path TAB line TAB column` of an offset; PSI text has its line separators made `\n`, which moves no column. */
private fun position(element: PsiElement, offset: Int): String? {
    val path = relative(element) ?: return null
    val starts = lineStarts.getOrPut(path) {
        val text = element.containingFile.text
        val list = ArrayList<Int>().apply { add(0) }
        text.forEachIndexed { i, c -> if (c == '\n') list.add(i + 1) }
        list.toIntArray()
    }
    var line = java.util.Arrays.binarySearch(starts, offset)
    if (line < 0) line = -line - 2
    return "$path\t${line + 1}\t${offset - starts[line] + 1}"
}

/** The name of a declaration in the source (Kotlin or Java), or null when it has none there. */
private fun nameOf(psi: PsiElement): PsiElement? = when (psi) {
    is KtPrimaryConstructor -> psi.getContainingClassOrObject().nameIdentifier
    is KtSecondaryConstructor -> psi.getConstructorKeyword()
    is KtNamedDeclaration -> psi.nameIdentifier
    is PsiNameIdentifierOwner -> psi.nameIdentifier
    else -> null
}

private fun kindOf(d: DeclarationDescriptor): String = when (d) {
    is ClassDescriptor -> d.kind.name.lowercase()
    is ConstructorDescriptor -> "constructor"
    is PropertyDescriptor -> "property"
    is FunctionDescriptor -> "function"
    is TypeAliasDescriptor -> "typealias"
    else -> "other"
}

/** The id of a declaration of the corpus at its name (declared on first sight), or null. */
private fun idOf(d: DeclarationDescriptor): Int? {
    val psi = DescriptorToSourceUtils.getSourceFromDescriptor(d) ?: return null
    // A library's class file has PSI too (without text): only the corpus's sources are declarations.
    if (relative(psi) == null) return null
    val name = nameOf(psi) ?: return null
    val at = position(name, name.textRange.startOffset) ?: return null
    ids[at]?.let { return it }
    val id = ids.size
    ids[at] = id
    out.println("D\t$id\t${kindOf(d)}\t${name.text}\t$at")
    return id
}

private fun declarable(d: DeclarationDescriptor): Boolean =
    (d is ClassDescriptor || d is CallableMemberDescriptor || d is TypeAliasDescriptor) && !DescriptorUtils.isLocal(d) && !ErrorUtils.isError(d)

private fun declarations(file: KtFile, context: BindingContext) {
    file.accept(object : KtTreeVisitorVoid() {
        override fun visitNamedDeclaration(declaration: KtNamedDeclaration) {
            if (declaration is KtClassOrObject || declaration is KtNamedFunction || declaration is KtProperty || declaration is KtTypeAlias || declaration is KtEnumEntry
                || (declaration is KtParameter && declaration.hasValOrVar())) {
                val d = if (declaration is KtParameter) context[BindingContext.PRIMARY_CONSTRUCTOR_PARAMETER, declaration] else context[BindingContext.DECLARATION_TO_DESCRIPTOR, declaration]
                if (d != null && declarable(d)) idOf(d)
            }
            super.visitNamedDeclaration(declaration)
        }

        override fun visitSecondaryConstructor(constructor: KtSecondaryConstructor) {
            context[BindingContext.CONSTRUCTOR, constructor]?.let { idOf(it) }
            super.visitSecondaryConstructor(constructor)
        }
    })
}

/** What a name written in Kotlin refers to, as declarations written in the source. */
private fun written(target: DeclarationDescriptor, site: KtSimpleNameExpression): List<DeclarationDescriptor> {
    if (target is SyntheticJavaPropertyDescriptor) {
        // `order.status = x` calls the setter, `order.count += 1` both, a read the getter.
        val parent = (site.parent as? KtQualifiedExpression)?.takeIf { it.selectorExpression == site } ?: site
        val assignment = parent.parent as? KtBinaryExpression
        val assigned = assignment != null && assignment.left == parent && assignment.operationToken in KtTokens.ALL_ASSIGNMENTS
        val compound = (assigned && assignment!!.operationToken != KtTokens.EQ) || (parent.parent as? KtUnaryExpression)?.operationToken in listOf(KtTokens.PLUSPLUS, KtTokens.MINUSMINUS)
        return listOfNotNull(if (!assigned || compound) target.getMethod else null, if (assigned || compound) target.setMethod else null)
            .map { DescriptorUtils.unwrapFakeOverride(it.original) }
    }
    if (target is SyntheticMemberDescriptor<*>) return listOf(target.baseDescriptorForSynthetic as DeclarationDescriptor)
    // `OrderService.create()` of a companion's member names the class, not its unnamed companion.
    if (target is ClassDescriptor && target.isCompanionObject && site.getReferencedName() != target.name.asString()) return listOfNotNull(target.containingDeclaration as? ClassDescriptor)
    val original = target.original
    if (original is ClassConstructorDescriptor) {
        val type = original.constructedClass
        return if (original.isPrimary) listOf(type) else listOf(original, type)
    }
    if (original is ConstructorDescriptor) return listOf(original, original.constructedClass)
    if (original is CallableMemberDescriptor) return listOf(DescriptorUtils.unwrapFakeOverride(original))
    return listOf(original)
}

private fun references(file: KtFile, context: BindingContext) {
    file.accept(object : KtTreeVisitorVoid() {
        // `constructor(…) : super(…)` / `this(…)`: the delegation's `super`/`this` names the constructor
        // it calls (javac's `super(…)` does the same); a primary constructor is its class. Its
        // reference expression is no simple name, so the visitor below never meets it.
        override fun visitConstructorDelegationCall(call: KtConstructorDelegationCall) {
            super.visitConstructorDelegationCall(call)
            val reference = call.calleeExpression ?: return
            if (reference.text.isEmpty()) return // an implicit `super()` delegation call
            val at = position(reference, reference.textRange.startOffset) ?: return
            val target = call.getResolvedCall(context)?.resultingDescriptor?.original
            if (target == null || ErrorUtils.isError(target)) {
                out.println("U\t$at")
                return
            }
            val written = if (target is ClassConstructorDescriptor && target.isPrimary) target.constructedClass else target
            if (!declarable(written)) return
            val id = idOf(written) ?: return
            out.println("R\t$id\t$at")
            references++
        }

        override fun visitSimpleNameExpression(expression: KtSimpleNameExpression) {
            super.visitSimpleNameExpression(expression)
            // Names only: operators (`+`, `in`, `==`) are references of their own kind.
            if (expression !is KtNameReferenceExpression) return
            // `this.x`, `super.f()`: an instance, not a name of a declaration (javac's `this` and `super` are variables).
            if (expression.parent is KtInstanceExpressionWithLabel) return
            val site = expression.getIdentifier() ?: expression
            if (site.text.isEmpty()) return // an implicit `super()` delegation call
            val at = position(site, site.textRange.startOffset) ?: return
            val target = context[BindingContext.REFERENCE_TARGET, expression]
            // Unresolved (a missing library) or ambiguous: the compiler judges nothing here.
            if (target == null || ErrorUtils.isError(target)) {
                out.println("U\t$at")
                return
            }
            for (d in written(target, expression)) {
                if (!declarable(d)) continue
                val id = idOf(d) ?: continue
                out.println("R\t$id\t$at")
                references++
            }
        }
    })
}
